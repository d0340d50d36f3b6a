import FeedsCDN
import FeedsCore
import FeedsMedia
import Foundation
import Logging

/// Everything between a checked file and a stored object: the pending record first, then the
/// bytes through the uploader, and on any failure neither bytes nor record left behind.
struct UploadPipeline: Sendable {
    let objects: any ObjectStore
    let uploader: AttachmentUploader
    let cdn: any CDNClient
    let signer: URLSigner
    let tempDirectory: URL
    /// The app's upload rules and URL lifetime, as this node last heard of them.
    let settings: AppSettingsCache
    /// Resized images, for thumbnails and `upload_sizes`.
    let variants: ImageVariants

    /// The largest file a request may stream to disk under `settings`: the limit of the rules
    /// for `imageOnly`, or when that is not known yet (an attachment's type comes with the
    /// `activity` part, which may come last) the larger of the two; the exact check follows the sniffing.
    func streamLimit(_ settings: AppSettings, imageOnly: Bool? = nil) -> SizeLimit {
        let kinds = imageOnly.map { [$0] } ?? [false, true]
        return kinds.map { image in
            let (rules, name) = settings.rules(forImage: image)
            return SizeLimit(rules, named: name, storageLimit: cdn.maxAttachmentSize)
        }.max { $0.bytes < $1.bytes }!
    }

    /// One file to store, and the attachment payload to keep for it.
    struct Job {
        var checked: FileChecker.Checked
        var kind: ObjectRecord.Kind
        var payload: JSONObject = [:]
    }

    /// A fresh signed URL for an object, valid for the current `cdn_expiration_seconds`.
    func url(for key: ObjectKey) -> String {
        let lifetime = TimeInterval(settings.current.cdnExpirationSeconds)
        return cdn.readURL(for: key, expiresAt: Date().addingTimeInterval(lifetime)).absoluteString
    }

    /// The thumbnail of an image at its signed `url`: a variant that fits in 512×512 (the resize
    /// is not part of the signature), or the original where there is none (SVG is never rasterised).
    func thumbnailURL(_ url: String, mimeType: String) -> String {
        guard ImageResizer.outputType(for: mimeType) != nil else { return url }
        let side = ImageVariants.thumbnailSide
        return url + "&w=\(side)&h=\(side)"
    }

    /// Makes the variants of a just-stored image ahead of their first request. `temp` is the
    /// upload's temp file, still there when the store copied it (S3) and renamed when it did not.
    func precompute(_ requests: [ResizeRequest], of key: ObjectKey, mimeType: String, temp: URL) async throws {
        let local = (cdn as? LocalDiskCDN).flatMap { try? $0.object(for: key)?.path }
        let source = local ?? temp.path
        for request in requests {
            _ = try await variants.variant(of: key, mimeType: mimeType, request: request) { source }
        }
    }

    /// Reserves and uploads `jobs`; returns their records and payloads (each holding its key) in order.
    func store(_ jobs: [Job], owner: String?, logger: Logger) async throws -> [(record: ObjectRecord, payload: JSONObject)] {
        let records = jobs.map { job in
            ObjectRecord(
                key: ObjectKey(fileName: job.checked.file.fileName), kind: job.kind, ownerID: owner,
                fileName: job.checked.file.fileName, mimeType: job.checked.file.mimeType, size: job.checked.file.size,
                sha256: job.checked.file.sha256, width: job.checked.width, height: job.checked.height
            )
        }
        try await objects.reserve(records, logger: logger)
        let items = zip(jobs, records).enumerated().map { index, pair in
            var payload = pair.0.payload
            payload[AttachmentPayload.objectKeyField] = .string(pair.1.key.rawValue)
            return AttachmentUploader.Item(index: index, file: pair.0.checked.file, key: pair.1.key, payload: payload)
        }
        let uploaded: [UploadedAttachment]
        do {
            uploaded = try await uploader.upload(items, logger: logger)
        } catch {
            // The uploader deleted what it stored; the records go too.
            try? await objects.forget(records.map(\.key), logger: logger)
            throw Self.refusal(error)
        }
        return zip(records, uploaded).map { ($0, $1.payload) }
    }

    /// Removes stored objects whose activity was not written.
    func discard(_ keys: [ObjectKey], logger: Logger) async {
        for key in keys {
            do {
                try await cdn.delete(key: key)
                try await objects.forget([key], logger: logger)
            } catch {
                logger.error("could not remove an orphaned upload; gc will", metadata: ["key": "\(key)", "error": "\(error)"])
            }
        }
    }

    /// A CDN failure is the gateway's (502); anything else keeps its meaning.
    static func refusal(_ error: any Error) -> any Error {
        guard let cdnError = error as? CDNError else { return error }
        return FeedsError(.badGateway, "the file store failed: \(cdnError.message)")
    }
}
