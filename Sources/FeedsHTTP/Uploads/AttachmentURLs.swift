import FeedsCore
import Logging

/// Turns the object key an attachment holds into fresh signed URLs, and a client's URL of one of
/// our objects back into its key.
enum AttachmentURLs {
    /// The payload as the wire shows it: `asset_url` for every object, `image_url` and `thumb_url` for images.
    static func resolve(_ payload: JSONObject, with pipeline: UploadPipeline) -> JSONObject {
        guard let key = AttachmentPayload.objectKey(in: payload) else { return payload }
        var resolved = payload
        resolved[AttachmentPayload.objectKeyField] = nil
        let url = pipeline.url(for: key)
        resolved["asset_url"] = .string(url)
        if case .string(let type) = payload["mime_type"], type.hasPrefix("image/") {
            resolved["image_url"] = .string(url)
            resolved["thumb_url"] = .string(pipeline.thumbnailURL(url, mimeType: type))
        }
        return resolved
    }

    /// Attachments given as JSON whose URL is one of our objects link to it (and then count as
    /// attached); the caller must own it. Other URLs stay as given.
    static func link(
        _ attachments: [JSONObject], principal: Principal, pipeline: UploadPipeline, logger: Logger
    ) async throws -> [JSONObject] {
        var linked: [JSONObject] = []
        for (index, attachment) in attachments.enumerated() {
            let urls = ["asset_url", "image_url", "thumb_url"].compactMap { field -> String? in
                if case .string(let url) = attachment[field] { url } else { nil }
            }
            guard let key = urls.lazy.compactMap({ pipeline.signer.objectKey(inURL: $0) }).first else {
                linked.append(attachment)
                continue
            }
            guard let record = try await pipeline.objects.object(key, logger: logger), record.state != .deleted else {
                throw FeedsError.input("attachments[\(index)] points at a file that does not exist", field: "attachments")
            }
            guard principal == .server || record.ownerID == principal.userID else {
                throw FeedsError.notAllowed("attachments[\(index)] points at another user's file")
            }
            var payload = attachment
            for field in ["asset_url", "image_url", "thumb_url"] { payload[field] = nil }
            payload[AttachmentPayload.objectKeyField] = .string(key.rawValue)
            if payload["mime_type"] == nil { payload["mime_type"] = .string(record.mimeType) }
            if payload["file_size"] == nil { payload["file_size"] = .number(Double(record.size)) }
            linked.append(payload)
        }
        return linked
    }
}
