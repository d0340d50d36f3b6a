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
        return payload
    }
}
