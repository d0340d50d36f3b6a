import FeedsCore

/// The attachment payload kept for a file uploaded with its activity (URLs are added on every read).
package enum UploadedPayload {
    package static func make(for checked: FileChecker.Checked, type: String, title: String?, custom: JSONObject?) -> JSONObject {
        var payload: JSONObject = [
            "type": .string(type),
            "title": .string(title ?? checked.file.fileName),
            "mime_type": .string(checked.file.mimeType),
            "file_size": .number(Double(checked.file.size)),
            "custom": .object(custom ?? [:]),
        ]
        if let width = checked.width, let height = checked.height {
            payload["original_width"] = .number(Double(width))
            payload["original_height"] = .number(Double(height))
        }
        // What the server measured stands over what the client said (in `custom`, where Stream's
        // sample apps keep a video's `duration`).
        var measured = custom ?? [:]
        checked.measures?.write(into: &measured)
        if let waveform = checked.waveform { measured["waveform_data"] = .array(waveform.map { .number($0) }) }
        payload["custom"] = .object(measured)
        return payload
    }
}
