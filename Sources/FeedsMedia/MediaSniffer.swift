import CMagic
import FeedsCore
import Foundation

/// Finds a file's MIME type from its bytes, with libmagic, never from a name or a declared type.
///
/// libmagic sees SVG as `image/svg+xml` only when the document opens with `<svg` or an XML
/// declaration; with a comment or blank lines first it says `text/plain` (or `text/xml`). Those
/// answers are checked once more: when the root element is `<svg`, the type is `image/svg+xml`
/// (see `SVGRoot`). Compressed SVG (`.svgz`) stays `application/gzip`.
public enum MediaSniffer {
    /// The MIME type of the file's bytes, lowercased and without parameters, such as `image/png`,
    /// `text/html`, `application/pdf` or, for an empty file, `inode/x-empty`.
    ///
    /// - Throws: `FeedsError` (`.internal`) when the file cannot be read or libmagic cannot load
    ///   its database.
    public static func mimeType(ofFileAt path: String) throws -> String {
        let magicType = try MagicPool.shared.withCookie { cookie in
            guard let answer = magic_file(cookie.pointer, path) else {
                throw FeedsError(.internal, "The uploaded file could not be read.")
            }
            return String(cString: answer)
        }
        let type = normalized(magicType)
        if SVGRoot.mayHide(in: type), SVGRoot.isRoot(ofFileAt: path) {
            return "image/svg+xml"
        }
        return type
    }

    /// `type` lowercased, without parameters (`; charset=…`) or surrounding blanks.
    static func normalized(_ type: String) -> String {
        let bare = type.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return bare.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
