import FeedsCore
import FeedsMedia
import FeedsUploads
import Logging

/// A file sent with a create (`attachment_uploads`), streamed to disk, with what its part said.
package struct AttachedFile: Sendable {
    package var type: String
    package var title: String?
    package var custom: JSONObject?
    package var file: ReceivedFile

    package init(type: String, title: String?, custom: JSONObject?, file: ReceivedFile) {
        (self.type, self.title, self.custom, self.file) = (type, title, custom, file)
    }
}

/// An object stored for a create, and the attachment that shows it.
package typealias StoredUpload = (record: ObjectRecord, attachment: StoredAttachment)

/// Uploads' workflow: a file checked (size, sniffed type, the upload rules), described (audio and
/// video probed) and stored through the uploader; standalone uploads and their deletion.
package struct Uploads: Sendable {
    package let pipeline: UploadPipeline

    package init(pipeline: UploadPipeline) { self.pipeline = pipeline }

    /// Checks the files a create sent with it and stores them, for an activity or a comment
    /// alike; all or none.
    package func attach(_ files: [AttachedFile], owner: String, settings: AppSettings, logger: Logger) async throws
        -> [StoredUpload]
    {
        guard !files.isEmpty else { return [] }
        var jobs: [UploadPipeline.Job] = []
        for (index, entry) in files.enumerated() {
            let checked = await pipeline.describe(
                try FileChecker.check(
                    entry.file, imageOnly: entry.type == "image", settings: settings,
                    storageLimit: pipeline.cdn.maxAttachmentSize, field: "attachment_uploads[\(index)]"),
                attachmentType: entry.type, logger: logger)
            jobs.append(
                UploadPipeline.Job(
                    checked: checked, kind: checked.isImage ? .image : .file,
                    payload: UploadedPayload.make(for: checked, type: entry.type, title: entry.title, custom: entry.custom)))
        }
        return try await pipeline.store(jobs, owner: owner, logger: logger)
    }

    /// Gives back what `attach` stored, when the write that was to hold it failed.
    package func detach(_ stored: [StoredUpload], logger: Logger) async {
        await pipeline.discard(stored.map(\.record.key), logger: logger)
    }

    /// Checks and stores a standalone upload (UploadFile, UploadImage) for `user` (the token's
    /// user, or the one the server names), with the sizes asked for made at once. The reply
    /// `respond` makes of its URL and, when it has one, its thumbnail's, is recorded for `claim`
    /// as the upload becomes stored.
    package func standalone<Response: Codable & Sendable>(
        _ file: ReceivedFile?, user: String?, imageOnly: Bool, settings: AppSettings, variants: [ResizeRequest] = [],
        claim: Idempotency.Claim?, principal: Principal, logger: Logger, respond: (String, String?) -> Response
    ) async throws -> Response {
        guard let file else { throw FeedsError.input("the part file is required", field: "file") }
        let owner = try principal.actingUser(requested: user, field: "user")
        let checked = await pipeline.describe(
            try FileChecker.check(
                file, imageOnly: imageOnly, settings: settings, storageLimit: pipeline.cdn.maxAttachmentSize, field: "file"),
            attachmentType: nil, logger: logger)
        let stored = try await pipeline.store(
            [.init(checked: checked, kind: imageOnly ? .image : .file)], owner: owner, logger: logger)
        let keys = stored.map(\.record.key)
        if !variants.isEmpty {
            do {
                try await pipeline.precompute(variants, of: keys[0], mimeType: checked.file.mimeType, temp: file.url)
            } catch {
                // The upload stands; a size that cannot be made answers its own request with the reason.
                logger.warning("could not precompute upload_sizes", metadata: ["error": "\(error)"])
            }
        }
        let url = pipeline.urls.url(for: keys[0])
        let response = respond(url, checked.hasThumbnail ? pipeline.urls.thumbnailURL(url, mimeType: checked.file.mimeType) : nil)
        let recorded = try claim.map { _ in try Idempotency.recorded(response) }
        try await pipeline.objects.markStored(
            keys, recording: claim.flatMap { claim in recorded.map { bytes in claim.record { (_: Void) in bytes } } },
            logger: logger)
        return response
    }

    /// Deletes one of our objects by its URL: its owner or the server; again is fine; not ours is 404.
    package func delete(url: String?, principal: Principal, logger: Logger) async throws {
        guard let url, !url.isEmpty else { throw FeedsError.input("url is required", field: "url") }
        guard let key = pipeline.signer.objectKey(inURL: url), let record = try await pipeline.objects.object(key, logger: logger)
        else { throw FeedsError.notFound("\(url) is not a file of this server") }
        guard principal == .server || (record.ownerID != nil && record.ownerID == principal.userID) else {
            throw FeedsError.notAllowed("only the owner or the server may delete this file")
        }
        try await pipeline.delete(key, logger: logger)
    }
}
