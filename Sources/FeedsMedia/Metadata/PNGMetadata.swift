import Foundation

/// A PNG's metadata (`ImageMetadata`): its chunks stay as they are (pixels, palette, transparency,
/// the ICC profile, gamma and the rest) but `eXIf`, `tEXt`, `zTXt`, `iTXt` and `tIME`, and
/// whatever follows `IEND`. An orientation other than 1 stays as an `eXIf` of that tag alone.
enum PNGMetadata {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let dropped: Set<String> = ["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]

    static func strip(_ png: Data) throws -> [ImageMetadata.Piece]? {
        let bytes = [UInt8](png.prefix(8))
        guard bytes == signature else { throw ImageMetadata.broken("PNG", "it does not start as a PNG") }
        var pieces = Pieces()
        pieces.keep(0..<8)
        var at = 8
        var orientation: UInt16?
        var stripped = false
        var orientationKept = false
        while at < png.count {
            guard at + 8 <= png.count else {
                // Cut off inside a chunk's length or type: what is left is no metadata.
                pieces.keep(at..<png.count)
                break
            }
            let length = png.bigEndian32(at)
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            // A file cut off keeps what it has (a chunk of metadata cut off still goes).
            let end = min(at + 12 + length, png.count)
            let data = png[(at + 8)..<min(at + 8 + length, png.count)]
            if type == "eXIf", Array(data) == EXIFOrientation.tiff(EXIFOrientation.read(data) ?? 0) {
                orientationKept = true  // what a strip leaves
                pieces.keep(at..<end)
            } else if dropped.contains(type) {
                stripped = true
                if type == "eXIf", orientation == nil { orientation = EXIFOrientation.read(data) }
            } else {
                if type == "IDAT", !orientationKept, let kept = orientation, kept != 1 {
                    // Before the image data, as the format asks of eXIf.
                    pieces.append(.made(chunk("eXIf", EXIFOrientation.tiff(kept))))
                    orientationKept = true
                }
                pieces.keep(at..<end)
            }
            at = end
            if type == "IEND" {
                if at < png.count { stripped = true }
                break
            }
        }
        return stripped ? pieces.list : nil
    }

    /// A chunk: length, type, data, CRC of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return UInt32(data.count).bigEndianBytes + typed + CRC32.checksum(typed).bigEndianBytes
    }
}

/// Pieces in order, with neighbouring ranges of the original joined.
struct Pieces {
    private(set) var list: [ImageMetadata.Piece] = []

    mutating func keep(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        if case .original(let last) = list.last, last.upperBound == range.lowerBound {
            list[list.count - 1] = .original(last.lowerBound..<range.upperBound)
        } else {
            list.append(.original(range))
        }
    }

    mutating func append(_ piece: ImageMetadata.Piece) { list.append(piece) }
}

/// CRC-32 (ISO 3309, as PNG and zip use it).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension UInt32 {
    var bigEndianBytes: [UInt8] { [UInt8(self >> 24), UInt8(self >> 16 & 0xFF), UInt8(self >> 8 & 0xFF), UInt8(self & 0xFF)] }
    var littleEndianBytes: [UInt8] { bigEndianBytes.reversed() }
}

extension Data {
    /// The big-endian 32-bit number at `offset` (from the data's start index).
    func bigEndian32(_ offset: Int) -> Int {
        let at = startIndex + offset
        return Int(self[at]) << 24 | Int(self[at + 1]) << 16 | Int(self[at + 2]) << 8 | Int(self[at + 3])
    }

    /// The little-endian 32-bit number at `offset` (from the data's start index).
    func littleEndian32(_ offset: Int) -> Int {
        let at = startIndex + offset
        return Int(self[at]) | Int(self[at + 1]) << 8 | Int(self[at + 2]) << 16 | Int(self[at + 3]) << 24
    }
}
