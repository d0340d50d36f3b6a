import Foundation

/// A WebP's metadata (`ImageMetadata`): its chunks stay as they are (image data, alpha, animation,
/// the ICC profile) but `EXIF` and `XMP `, and whatever follows the RIFF container. An orientation
/// other than 1 stays as an `EXIF` of that tag alone. The RIFF size and the flags of `VP8X` are
/// written anew to say what is left.
enum WebPMetadata {
    static func strip(_ webp: Data) throws -> [ImageMetadata.Piece]? {
        guard webp.count >= 12, webp.prefix(4) == Data("RIFF".utf8), webp[8..<12] == Data("WEBP".utf8) else {
            throw ImageMetadata.broken("WebP", "it does not start as a WebP")
        }
        // A file cut off keeps what it has (a chunk of metadata cut off still goes).
        let end = min(8 + webp.littleEndian32(4), webp.count)
        var pieces = Pieces()
        var stripped = end < webp.count
        var flagsAt: Int?
        var keptEXIF = false
        var at = 12
        while at < end {
            guard at + 8 <= end else {
                pieces.keep(at..<end)
                break
            }
            let type = String(decoding: webp[at..<(at + 4)], as: UTF8.self)
            let size = webp.littleEndian32(at + 4)
            let next = at + 8 + size + size % 2
            let payload = webp[(at + 8)..<min(at + 8 + size, end)]
            switch type {
            case "EXIF":
                // Some writers put JPEG's `Exif\0\0` before the TIFF data.
                let tiff = payload.starts(with: Array("Exif".utf8) + [0, 0]) ? payload.dropFirst(6) : payload
                let orientation = EXIFOrientation.read(tiff)
                if let orientation, Array(payload) == EXIFOrientation.tiff(orientation) {
                    pieces.keep(at..<min(next, end))  // what a strip leaves
                    keptEXIF = true
                } else {
                    stripped = true
                    if let orientation, orientation != 1 {
                        pieces.append(.made(chunk("EXIF", EXIFOrientation.tiff(orientation))))
                        keptEXIF = true
                    }
                }
            case "XMP ":
                stripped = true
            default:
                if type == "VP8X", size >= 10 { flagsAt = at + 8 }
                pieces.keep(at..<min(next, end))
            }
            at = next
        }
        guard stripped else { return nil }
        let chunks = pieces.list
        let body = chunks.reduce(0) { total, piece in
            switch piece {
            case .original(let range): total + range.count
            case .made(let bytes): total + bytes.count
            }
        }
        var result: [ImageMetadata.Piece] = [.made(Array("RIFF".utf8) + UInt32(4 + body).littleEndianBytes + Array("WEBP".utf8))]
        // VP8X's flags say which chunks follow: no XMP now, and EXIF only if the orientation stayed.
        for piece in chunks {
            guard let flagsAt, case .original(let range) = piece, range.contains(flagsAt) else {
                result.append(piece)
                continue
            }
            var flags = webp[flagsAt] & ~0x04
            flags = keptEXIF ? flags | 0x08 : flags & ~0x08
            result += [.original(range.lowerBound..<flagsAt), .made([flags]), .original((flagsAt + 1)..<range.upperBound)]
                .filter { if case .original(let r) = $0 { !r.isEmpty } else { true } }
        }
        return result
    }

    /// A chunk: type, little-endian size, data, a pad byte to an even length.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        Array(type.utf8) + UInt32(data.count).littleEndianBytes + data + (data.count % 2 == 1 ? [0] : [])
    }
}
