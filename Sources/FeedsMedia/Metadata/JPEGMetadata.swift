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
        try jpeg.withUnsafeBytes { raw in
            var reader = Segments(bytes: raw.bindMemory(to: UInt8.self))
            return try reader.strip()
        }
    }

    /// An APP1 segment holding only `orientation`.
    static func exifSegment(orientation: UInt16) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + EXIFOrientation.tiff(orientation)
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}

/// Walks a JPEG's segments: markers and their lengths before the image data, and the entropy-coded
/// data of each scan up to the next marker.
private struct Segments {
    let bytes: UnsafeBufferPointer<UInt8>
    var pieces = Pieces()
    var stripped = false
    var orientationKept = false

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func strip() throws -> [JPEGMetadata.Piece]? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw broken("it does not start as a JPEG") }
        keep(0..<2)
        var at = 2
        var orientation: UInt16?
        while at < bytes.count {
            // Fill bytes (0xFF runs) may come before a marker.
            guard bytes[at] == 0xFF else { throw broken("a segment does not start with a marker") }
            var markerAt = at
            while markerAt + 1 < bytes.count, bytes[markerAt + 1] == 0xFF { markerAt += 1 }
            guard markerAt + 1 < bytes.count else { throw broken("it ends inside a marker") }
            let marker = bytes[markerAt + 1]
            if marker == 0xD9 {  // EOI: the end; whatever follows is dropped
                keep(markerAt..<markerAt + 2)
                if markerAt + 2 < bytes.count { stripped = true }
                return finish(orientation)
            }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                keep(markerAt..<markerAt + 2)
                at = markerAt + 2
                continue
            }
            guard markerAt + 4 <= bytes.count else {
                // Cut off inside a marker's length: what is left is no metadata.
                keep(markerAt..<bytes.count)
                return finish(orientation)
            }
            let length = Int(bytes[markerAt + 2]) << 8 | Int(bytes[markerAt + 3])
            guard length >= 2 else { throw broken("a segment is shorter than its own length") }
            let end = min(markerAt + 2 + length, bytes.count)  // a file cut off keeps what it has
            let payload = bytes[(markerAt + 4)..<max(markerAt + 4, end)]
            if keeps(marker, payload) {
                keep(markerAt..<end)
            } else if marker == 0xE1, isBareOrientation(payload) {
                // What a strip leaves: kept as it is, so stripping twice changes nothing.
                keep(markerAt..<end)
                orientationKept = true
            } else {
                stripped = true
                if marker == 0xE1, payload.starts(with: Self.exif), orientation == nil {
                    orientation = EXIFOrientation.read(payload.dropFirst(Self.exif.count))
                }
            }
            at = end
            if marker == 0xDA { at = scanData(from: at) }
        }
        // No EOI: a truncated image keeps what it has.
        return finish(orientation)
    }

    static let exif = Array("Exif".utf8) + [0, 0]

    /// Whether a segment stays: everything but metadata. APP0 only as JFIF, APP2 only as an ICC
    /// profile, APP14 only as Adobe's colour transform; no APP1 (EXIF, XMP), other APPn or COM.
    private func keeps(_ marker: UInt8, _ payload: UnsafeBufferPointer<UInt8>.SubSequence) -> Bool {
        switch marker {
        case 0xE0: payload.starts(with: Array("JFIF".utf8) + [0])
        case 0xE2: payload.starts(with: Array("ICC_PROFILE".utf8) + [0])
        case 0xEE: payload.starts(with: Array("Adobe".utf8))
        case 0xE1, 0xE3...0xED, 0xEF, 0xFE: false
        default: true
        }
    }

    /// Whether an APP1 payload is exactly the EXIF a strip writes: the orientation alone.
    private func isBareOrientation(_ payload: UnsafeBufferPointer<UInt8>.SubSequence) -> Bool {
        guard payload.starts(with: Self.exif),
            let orientation = EXIFOrientation.read(payload.dropFirst(Self.exif.count))
        else { return false }
        return payload.elementsEqual(JPEGMetadata.exifSegment(orientation: orientation).dropFirst(4))
    }

    /// Keeps a scan's entropy-coded data from `start` up to the next marker (not a stuffed 0xFF00,
    /// a restart marker, or fill); returns where that marker is.
    private mutating func scanData(from start: Int) -> Int {
        var at = start
        while at + 1 < bytes.count {
            guard let hit = memchr(bytes.baseAddress! + at, 0xFF, bytes.count - at) else { break }
            let found = bytes.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            guard found + 1 < bytes.count else { at = bytes.count; break }
            let next = bytes[found + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                at = found + (next == 0xFF ? 1 : 2)
                continue
            }
            keep(start..<found)
            return found
        }
        keep(start..<bytes.count)
        return bytes.count
    }

    private mutating func keep(_ range: Range<Int>) { pieces.keep(range) }

    /// The pieces, with the orientation put back right after SOI; nil when nothing was dropped.
    private func finish(_ orientation: UInt16?) -> [JPEGMetadata.Piece]? {
        guard stripped else { return nil }
        guard !orientationKept, let orientation, orientation != 1 else { return pieces.list }
        // Right after SOI and any JFIF APP0, where readers look for EXIF.
        var result = pieces.list
        guard case .original(let first) = result[0] else { return pieces.list }
        var split = 2
        if bytes.count > 4, bytes[2] == 0xFF, bytes[3] == 0xE0, first.upperBound >= 6 {
            split = min(first.upperBound, 4 + (Int(bytes[4]) << 8 | Int(bytes[5])))
        }
        result.replaceSubrange(
            0..<1,
            with: [.original(first.lowerBound..<split), .made(JPEGMetadata.exifSegment(orientation: orientation))]
                + (split < first.upperBound ? [.original(split..<first.upperBound)] : []))
        return result
    }

    private func broken(_ why: String) -> FeedsError { ImageMetadata.broken("JPEG", why) }
}
