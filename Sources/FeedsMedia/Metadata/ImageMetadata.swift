import FeedsCore
import Foundation

/// What of a photo may leave the server: its pixels exactly as they came (nothing is decoded or
/// re-encoded), its colour profile and its orientation. Location, camera serials, maker notes,
/// times, XMP, IPTC, comments and trailing data go. One walker per format (`JPEGMetadata`,
/// `PNGMetadata`, `WebPMetadata`, `HEIFMetadata`, `TIFFMetadata`); each gives the stripped file as
/// pieces to write.
public enum ImageMetadata {
    /// A part of the stripped file: bytes of the original, or bytes made here.
    public enum Piece: Equatable, Sendable {
        case original(Range<Int>)
        case made([UInt8])
    }

    /// The types whose metadata is stripped.
    public static let strippedTypes: Set<String> = [
        "image/jpeg", "image/png", "image/webp", "image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence",
        "image/avif", "image/tiff",
    ]

    /// `file` (of the sniffed `mimeType`) stripped, as pieces in order; nil when there is nothing
    /// to strip or the type is not one of `strippedTypes`.
    ///
    /// - Throws: `FeedsError.input` when the file's structure is broken (a part running past the
    ///   end): what it holds cannot be told apart, so it is not stored.
    public static func strip(_ file: Data, mimeType: String) throws -> [Piece]? {
        // The walkers count from 0.
        let file = file.startIndex == 0 ? file : Data(file)
        return switch mimeType {
        case "image/jpeg": try JPEGMetadata.strip(file)
        case "image/png": try PNGMetadata.strip(file)
        case "image/webp": try WebPMetadata.strip(file)
        case "image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence", "image/avif": try HEIFMetadata.strip(file)
        case "image/tiff": try TIFFMetadata.strip(file)
        default: nil
        }
    }

    static func broken(_ format: String, _ why: String) -> FeedsError {
        FeedsError.input("the \(format)'s structure is broken (\(why)), so its metadata cannot be removed")
    }
}

/// EXIF's orientation tag: read from TIFF data, and written as TIFF data holding nothing else.
enum EXIFOrientation {
    /// The orientation (1–8) in IFD0 of `tiff` (a TIFF header and its IFDs), if any.
    static func read<Bytes: Collection<UInt8>>(_ tiff: Bytes) -> UInt16? {
        let bytes = Array(tiff.prefix(65_536))
        guard bytes.count >= 8 else { return nil }
        let little = bytes[0] == 0x49 && bytes[1] == 0x49
        guard little || (bytes[0] == 0x4D && bytes[1] == 0x4D) else { return nil }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(little ? at + 2 : at), let low = u16(little ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<min(count, 1000) {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            // A SHORT, its value in the first two bytes of the entry's value field.
            if tag == 0x0112, u16(at + 2) == 3, let value = u16(at + 8), (1...8).contains(value) { return UInt16(value) }
        }
        return nil
    }

    /// A big-endian TIFF header and an IFD0 of one entry: `orientation`.
    static func tiff(_ orientation: UInt16) -> [UInt8] {
        [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // MM, 42, IFD0 at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01,  // Orientation, SHORT, one value
            UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,  // no next IFD
        ]
    }
}
