import FeedsCore

/// An attachment whose bytes are in the CDN: what the uploader returns for each item, and what a
/// post-processor sees.
public struct UploadedAttachment: Sendable, Hashable {
    /// The caller's identity for the attachment, as given in `AttachmentUploader.Item.index`.
    public var index: Int
    /// The temp file the bytes came from.
    public var file: LocalFile
    /// What the CDN stored, under which key.
    public var uploaded: UploadedFile
    /// The attachment payload (type, title, custom fields), rewritten by the post-processor if one ran.
    public var payload: JSONObject

    /// An uploaded attachment.
    public init(index: Int, file: LocalFile, uploaded: UploadedFile, payload: JSONObject) {
        self.index = index
        self.file = file
        self.uploaded = uploaded
        self.payload = payload
    }
}

/// Rewrites an attachment's payload once its bytes are uploaded (a title, a thumbnail, extra
/// fields), as Stream's `UploadedAttachmentPostProcessor` does.
public protocol UploadedAttachmentPostProcessor: Sendable {
    /// The payload to keep for `attachment`: its own `payload`, changed as needed. Throwing fails the batch.
    func process(_ attachment: UploadedAttachment) async throws -> JSONObject
}
