import FeedsCore
import FeedsMedia
import Foundation

/// The Check and Describe steps: the type comes from the bytes, never from the client, an
/// image's size from its header, and the app's upload rules decide what is accepted.
package enum FileChecker {
    /// A received file, checked and described.
    package struct Checked {
        package var file: LocalFile
        package var width: Int?
        package var height: Int?
        /// Audio and video: what ffprobe found (`UploadPipeline.describe`).
        package var media: MediaInfo?
        /// A voice recording's loudness, as `waveform_data`.
        package var waveform: [Double]?
        package var isImage: Bool { ImageTypes.allowed.contains(file.mimeType) }
        /// Whether it has a `thumb_url`: an image, or a video with a picture (its poster).
        package var hasThumbnail: Bool { isImage || media?.hasVideo == true }
        /// What ffprobe measured, as the object's record keeps it.
        package var measures: ObjectRecord.Media? { media.map { ObjectRecord.Media(duration: $0.duration, codec: $0.codec) } }
    }

    /// Sniffs and checks one received file under the settings the request started with.
    /// `imageOnly` for the image endpoint and `image` attachments, which also picks the image rules.
    package static func check(
        _ received: ReceivedFile, imageOnly: Bool, settings: AppSettings, storageLimit: Int64, field: String
    ) throws -> Checked {
        let (rules, rulesName) = settings.rules(forImage: imageOnly)
        let limit = SizeLimit(rules, named: rulesName, storageLimit: storageLimit)
        guard received.size <= limit.bytes else {
            throw FeedsError(
                .payloadTooLarge, "\(received.fileName) is \(received.size) bytes, over \(limit.rule) of \(limit.bytes) bytes",
                field: field)
        }
        let sniffed = try MediaSniffer.mimeType(ofFileAt: received.url.path)
        let claimsImage =
            (received.declaredType ?? "").lowercased().hasPrefix("image/")
            || imageExtensions.contains(fileExtension(received.fileName))
        if claimsImage, ImageTypes.isDangerous(sniffed: sniffed) {
            throw FeedsError.input("\(received.fileName) claims to be an image but its content is \(sniffed)", field: field)
        }
        if imageOnly, !ImageTypes.allowed.contains(sniffed) {
            throw FeedsError.input(
                "\(received.fileName) is \(sniffed), not an image of an accepted type "
                    + "(\(ImageTypes.allowed.sorted().joined(separator: ", ")))",
                field: field
            )
        }
        if let refusal = rules.refusal(fileName: received.fileName, mimeType: sniffed, rules: rulesName) {
            throw FeedsError.input(refusal, field: field)
        }
        var checked = Checked(
            file: LocalFile(
                url: received.url, fileName: received.fileName, size: received.size, sha256: received.sha256,
                mimeType: sniffed))
        if checked.isImage, sniffed != "image/svg+xml", let dimensions = try? ImageProbe.dimensions(ofFileAt: received.url.path) {
            checked.width = dimensions.width
            checked.height = dimensions.height
        }
        // Stored without location or identifying metadata; the orientation stays.
        do {
            if settings.stripImageMetadata {
                switch received.metadata {
                case .stripped: break  // a JPEG, stripped as it arrived
                case .broken(let error): throw error
                case .asSent: checked.file = try MetadataStripper.strip(checked.file)
                }
            }
        } catch let error as FeedsError where error.kind == .input {
            throw FeedsError.input("\(received.fileName): \(error.message)", field: field)
        }
        return checked
    }

    package static func fileExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    static let imageExtensions: Set<String> = [
        "bmp", "gif", "jpg", "jpeg", "png", "webp", "heic", "heics", "heif", "heifs", "svg", "avif", "tif", "tiff", "ico",
    ]
}
