import FeedsCore
import Foundation

/// A JPEG's metadata (`ImageMetadata`): it keeps JFIF, the ICC profile, Adobe's colour transform,
/// every table and scan, and an EXIF of the orientation alone; EXIF, XMP, IPTC, comments, other
/// APPn segments, multi-picture data and anything after the end of the image (where phones keep
/// depth maps and second images) go.
enum JPEGMetadata {
    typealias Piece = ImageMetadata.Piece

    /// The pieces of `jpeg` stripped, in order; nil when there is nothing to strip.
    static func strip(_ jpeg: Data) throws -> [Piece]? {
        var stream = JPEGMetadataStream()
        var pieces = Pieces()
        func add(_ outputs: [JPEGMetadataStream.Output]) {
            for output in outputs {
                switch output {
                case .chunk(let range): pieces.keep(range)
                case .made(let bytes): pieces.append(.made(bytes))
                }
            }
        }
        add(try jpeg.withUnsafeBytes { try stream.feed($0) })
        add(try stream.finish())
        return stream.stripped ? pieces.list : nil
    }

    /// An APP1 segment holding only `orientation`.
    static func exifSegment(orientation: UInt16) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + EXIFOrientation.tiff(orientation)
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// What becomes of a segment (`payload`: what follows its length): everything but metadata
    /// stays. APP0 only as JFIF, APP2 only as an ICC profile, APP14 only as Adobe's colour
    /// transform; no APP1 (EXIF, XMP) but an orientation-only EXIF, no other APPn, no COM.
    static func verdict(_ marker: UInt8, _ payload: UnsafeRawBufferPointer) -> Verdict {
        switch marker {
        case 0xE0 where payload.starts(with: Array("JFIF".utf8) + [0]),
            0xE2 where payload.starts(with: Array("ICC_PROFILE".utf8) + [0]),
            0xEE where payload.starts(with: Array("Adobe".utf8)):
            return .keep
        case 0xE1 where payload.starts(with: exif):
            guard let orientation = EXIFOrientation.read(payload.dropFirst(exif.count)) else { return .drop(orientation: nil) }
            let bare = payload.elementsEqual(exifSegment(orientation: orientation).dropFirst(4))
            return bare ? .keepOrientation : .drop(orientation: orientation)
        case 0xE0...0xEF, 0xFE:
            return .drop(orientation: nil)
        default:
            return .keep
        }
    }

    enum Verdict: Equatable {
        case keep
        /// An EXIF of the orientation alone, as a strip leaves it.
        case keepOrientation
        /// Left out; an EXIF's orientation is written in its place.
        case drop(orientation: UInt16?)
    }

    static let exif = Array("Exif".utf8) + [0, 0]
}
