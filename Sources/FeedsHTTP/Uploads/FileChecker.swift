import FeedsCore
import FeedsMedia
import Foundation

/// The Check and Describe steps: the type comes from the bytes, never from the client, and an
/// image's size from its header.
enum FileChecker {
    /// A received file, checked and described.
    struct Checked {
        var file: LocalFile
        var width: Int?
        var height: Int?
        var isImage: Bool { ImageTypes.allowed.contains(file.mimeType) }
    }

    /// Sniffs and checks one received file. `imageOnly` for the image endpoint and `image` attachments.
    static func check(
        url: URL, fileName: String, declaredType: String?, size: Int64, sha256: String, imageOnly: Bool, field: String
    ) throws -> Checked {
        let sniffed = try MediaSniffer.mimeType(ofFileAt: url.path)
        let claimsImage =
            (declaredType ?? "").lowercased().hasPrefix("image/") || imageExtensions.contains(fileExtension(fileName))
        if claimsImage, ImageTypes.isDangerous(sniffed: sniffed) {
            throw FeedsError.input("\(fileName) claims to be an image but its content is \(sniffed)", field: field)
        }
        if imageOnly, !ImageTypes.allowed.contains(sniffed) {
            throw FeedsError.input(
                "\(fileName) is \(sniffed), not an image of an accepted type (\(ImageTypes.allowed.sorted().joined(separator: ", ")))",
                field: field
            )
        }
        var checked = Checked(file: LocalFile(url: url, fileName: fileName, size: size, sha256: sha256, mimeType: sniffed))
        if checked.isImage, sniffed != "image/svg+xml", let dimensions = try? ImageProbe.dimensions(ofFileAt: url.path) {
            checked.width = dimensions.width
            checked.height = dimensions.height
        }
        return checked
    }

    static func fileExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    static let imageExtensions: Set<String> = [
        "bmp", "gif", "jpg", "jpeg", "png", "webp", "heic", "heics", "heif", "heifs", "svg", "avif", "tif", "tiff", "ico",
    ]
}
