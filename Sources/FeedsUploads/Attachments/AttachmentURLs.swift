import FeedsCore
import FeedsMedia
import Foundation

/// What a response needs of the upload domain: fresh signed URLs for the objects attachments
/// hold, valid for the app's current `cdn_expiration_seconds`.
package struct AttachmentURLs: Sendable {
    let cdn: any CDNClient
    let settings: AppSettingsCache

    package init(cdn: any CDNClient, settings: AppSettingsCache) {
        self.cdn = cdn
        self.settings = settings
    }

    /// The longest side of `thumb_url`'s variant.
    package static let thumbnailSide = 512

    /// The resize `thumb_url` asks for.
    static let thumbnail = ResizeRequest(width: thumbnailSide, height: thumbnailSide)

    /// A fresh signed URL for an object.
    package func url(for key: ObjectKey) -> String {
        let lifetime = TimeInterval(settings.current.cdnExpirationSeconds)
        return cdn.readURL(for: key, expiresAt: Date().addingTimeInterval(lifetime)).absoluteString
    }

    /// The thumbnail of an image or a video at its signed `url`: a variant that fits in 512×512
    /// (the resize is not part of the signature; a video's is of its poster frame), or the
    /// original where there is none (SVG is never rasterised).
    package func thumbnailURL(_ url: String, mimeType: String) -> String {
        guard ImageResizer.outputType(for: mimeType) != nil || AVTypes.isVideo(mimeType) else { return url }
        return url + "&w=\(Self.thumbnailSide)&h=\(Self.thumbnailSide)"
    }

    /// Whether an object has a thumbnail: an image, or a video whose probe found a picture.
    package func hasThumbnail(mimeType: String, width: Int?) -> Bool {
        mimeType.hasPrefix("image/") || (AVTypes.isVideo(mimeType) && width != nil)
    }

    /// The attachment as the wire shows it: `asset_url` for every object but a link preview's
    /// image, `image_url` and `thumb_url` for images, `thumb_url` (the poster) for videos with a
    /// picture; an attachment holding no object of ours as it was given.
    package func wire(_ attachment: StoredAttachment) -> JSONObject {
        guard let key = attachment.objectKey else { return attachment.payload }
        var payload = attachment.payload
        let url = url(for: key)
        // A link preview's image is no file of the post.
        if payload["og_scrape_url"] == nil { payload["asset_url"] = .string(url) }
        guard case .string(let type) = payload["mime_type"] else { return payload }
        if type.hasPrefix("image/") { payload["image_url"] = .string(url) }
        let width = if case .number(let width) = payload["original_width"] { Int(width) } else { Int?.none }
        if hasThumbnail(mimeType: type, width: width) {
            payload["thumb_url"] = .string(thumbnailURL(url, mimeType: type))
        }
        return payload
    }
}
