import FeedsAPI
import FeedsCore

/// The attachment payload kept for an uploaded file (URLs are added on every read).
enum UploadedPayload {
    static func make(
        for checked: FileChecker.Checked, type: String, title: String?, custom: Components.Schemas.AttachmentUpload.CustomPayload?
    ) throws -> JSONObject {
        var payload: JSONObject = [
            "type": .string(type),
            "title": .string(title ?? checked.file.fileName),
            "mime_type": .string(checked.file.mimeType),
            "file_size": .number(Double(checked.file.size)),
            "custom": .object(try custom.map { try recode($0) } ?? [:]),
        ]
        if let width = checked.width, let height = checked.height {
            payload["original_width"] = .number(Double(width))
            payload["original_height"] = .number(Double(height))
        }
        return payload
    }
}
