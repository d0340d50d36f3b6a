import FeedsCore
import FeedsUploads
import Foundation
import Logging

/// A link preview's image (`og:image`), fetched under `LinkFetcher`'s rules and stored as an image
/// upload is: its type sniffed, the app's image rules applied, its metadata stripped, kept by the
/// server (no owner). Clients are shown this copy, never the page's URL, so showing a preview
/// tells no third party who looked.
package struct PreviewImages: Sendable {
    let fetcher: LinkFetcher
    let pipeline: UploadPipeline

    package init(fetcher: LinkFetcher, pipeline: UploadPipeline) {
        (self.fetcher, self.pipeline) = (fetcher, pipeline)
    }

    /// The stored copy of the image at `url`, and its type; nil when it cannot be had (a target
    /// refused, not an image, over the limits), which costs the preview only its image.
    package func store(_ url: String, logger: Logger) async -> (key: ObjectKey, type: String)? {
        let settings = pipeline.settings.current
        let temp = TempFiles()
        defer { temp.removeAll() }
        do {
            let received = try await fetcher.image(
                url, into: pipeline.tempDirectory, strippingJPEG: settings.stripImageMetadata)
            temp.track(received.url)
            let checked = try FileChecker.check(
                received, imageOnly: true, settings: settings, storageLimit: pipeline.cdn.maxAttachmentSize, field: "url")
            let key = try await pipeline.store([.init(checked: checked, kind: .image)], owner: nil, logger: logger)[0].record.key
            try await pipeline.objects.markStored([key], recording: nil, logger: logger)
            return (key, checked.file.mimeType)
        } catch {
            logger.info("a preview's image was not stored", metadata: ["url": "\(url.prefix(200))", "error": "\(error)"])
            return nil
        }
    }

    /// Whether a stored copy may still be shown (gc has not claimed it).
    package func isKept(_ key: String, logger: Logger) async throws -> Bool {
        guard let key = ObjectKey(rawValue: key) else { return false }
        return try await pipeline.objects.object(key, logger: logger)?.state.isLinkable == true
    }

    /// The signed URL of a stored copy, and of its thumbnail.
    package func urls(_ key: String, type: String) -> (image: String, thumb: String)? {
        guard let key = ObjectKey(rawValue: key) else { return nil }
        let url = pipeline.urls.url(for: key)
        return (url, pipeline.urls.thumbnailURL(url, mimeType: type))
    }
}
