import Foundation

/// A HEIF's (HEIC's, AVIF's) metadata (`ImageMetadata`): its EXIF and XMP items are blanked where
/// they lie, so no box, offset or byte of image data moves. The EXIF keeps a TIFF header and an
/// empty directory; the XMP becomes spaces. HEIF readers take the orientation from the `irot` and
/// `imir` properties, not from EXIF, so it stays as it was.
enum HEIFMetadata {
    /// The blanked file as pieces; nil when there is nothing to blank.
    static func strip(_ heif: Data) throws -> [ImageMetadata.Piece]? {
        let file = [UInt8](heif)
        guard file.count >= 8, Array(file[4..<8]) == Array("ftyp".utf8) else { throw broken("it does not start as a HEIF") }
        guard let meta = try Boxes(file, in: 0..<file.count).first(named: "meta"), meta.payload.count >= 4 else { return nil }
        // `meta` is a full box: its children follow its version and flags.
        let children = try Boxes(file, in: (meta.payload.lowerBound + 4)..<meta.payload.upperBound)
        guard let info = children.first(named: "iinf"), let locations = children.first(named: "iloc") else { return nil }
        let wanted = try metadataItems(file, info.payload)
        guard !wanted.isEmpty else { return nil }
        let idat = children.first(named: "idat")?.payload
        var blanks: [(range: Range<Int>, bytes: [UInt8])] = []
        for (item, extents) in try ItemLocations(file, locations.payload).extents where wanted[item] != nil {
            let ranges = try extents.map { extent -> Range<Int> in
                let container: Range<Int>
                switch extent.method {
                case 0: container = 0..<file.count
                case 1:
                    guard let idat else { throw broken("an item lies in an idat box it does not have") }
                    container = idat
                default: throw broken("an item's data is made from another item's")
                }
                let (start, overflow) = container.lowerBound.addingReportingOverflow(extent.offset)
                guard !overflow, start <= container.upperBound else { throw broken("an item lies past the end") }
                // Length 0 is "to the end"; a file cut off blanks what it has.
                let length = extent.length == 0 ? container.upperBound - start : min(extent.length, container.upperBound - start)
                return start..<(start + length)
            }
            let total = ranges.reduce(0) { $0 + $1.count }
            var replacement = wanted[item] == .exif ? emptyEXIF(count: total) : [UInt8](repeating: 0x20, count: total)
            for range in ranges {
                blanks.append((range, Array(replacement.prefix(range.count))))
                replacement.removeFirst(range.count)
            }
        }
        blanks.sort { $0.range.lowerBound < $1.range.lowerBound }
        var pieces = Pieces()
        var at = 0
        var changed = false
        for blank in blanks where blank.range.lowerBound >= at {
            pieces.keep(at..<blank.range.lowerBound)
            if Array(file[blank.range]) == blank.bytes {
                pieces.keep(blank.range)
            } else {
                pieces.append(.made(blank.bytes))
                changed = true
            }
            at = blank.range.upperBound
        }
        pieces.keep(at..<file.count)
        return changed ? pieces.list : nil
    }

    enum Kind { case exif, xmp }

    /// The EXIF and XMP items `iinf` names, by id.
    static func metadataItems(_ file: [UInt8], _ info: Range<Int>) throws -> [UInt32: Kind] {
        guard info.count >= 6 else { throw broken("its item list is cut short") }
        let version = file[info.lowerBound]
        let entriesAt = info.lowerBound + 4 + (version == 0 ? 2 : 4)
        guard entriesAt <= info.upperBound else { throw broken("its item list is cut short") }
        var found: [UInt32: Kind] = [:]
        for entry in try Boxes(file, in: entriesAt..<info.upperBound).all where entry.type == "infe" {
            var reader = Reader(file, entry.payload)
            let version = try reader.byte()
            try reader.skip(3)
            // Versions 0 and 1 predate item types; 2 and 3 name them (3 with a 32-bit id).
            guard version >= 2 else { continue }
            let id = version == 2 ? UInt32(try reader.uint(2)) : UInt32(try reader.uint(4))
            try reader.skip(2)
            let type = try reader.fourCC()
            _ = try reader.string()
            if type == "Exif" {
                found[id] = .exif
            } else if type == "mime", try reader.string().lowercased().contains("rdf+xml") {
                found[id] = .xmp
            }
        }
        return found
    }

    /// An EXIF item of nothing: no prefix (offset 0), a TIFF header, a directory of no entries,
    /// then zeros to `count`.
    static func emptyEXIF(count: Int) -> [UInt8] {
        let empty: [UInt8] = [0, 0, 0, 0, 0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]
        return count >= empty.count
            ? empty + [UInt8](repeating: 0, count: count - empty.count) : [UInt8](repeating: 0, count: count)
    }

    static func broken(_ why: String) -> Error { ImageMetadata.broken("HEIF", why) }
}

/// The boxes in a range of a file, each its type and payload.
private struct Boxes {
    var all: [(type: String, payload: Range<Int>)] = []

    init(_ file: [UInt8], in range: Range<Int>) throws {
        var at = range.lowerBound
        while at + 8 <= range.upperBound, all.count < 10_000 {
            var reader = Reader(file, at..<range.upperBound)
            var size = try reader.uint(4)
            let type = try reader.fourCC()
            if size == 1 {
                size = try reader.uint(8)
            } else if size == 0 {
                size = range.upperBound - at
            }
            let header = reader.at - at
            // A box cut off at the end of the file keeps what it has.
            guard size >= header else { throw HEIFMetadata.broken("a box is shorter than its own header") }
            let end = at + min(size, range.upperBound - at)
            all.append((type, (at + header)..<end))
            at = end
        }
    }

    func first(named type: String) -> (type: String, payload: Range<Int>)? { all.first { $0.type == type } }
}

/// `iloc`: where each item's data lies, as extents.
private struct ItemLocations {
    struct Extent {
        var method: Int
        var offset: Int
        var length: Int
    }
    var extents: [(item: UInt32, extents: [Extent])] = []

    init(_ file: [UInt8], _ range: Range<Int>) throws {
        var reader = Reader(file, range)
        let version = try reader.byte()
        try reader.skip(3)
        let sizes = try reader.uint(2)
        let (offsetSize, lengthSize, baseSize) = (sizes >> 12 & 0xF, sizes >> 8 & 0xF, sizes >> 4 & 0xF)
        let indexSize = version >= 1 ? sizes & 0xF : 0
        let count = version < 2 ? try reader.uint(2) : try reader.uint(4)
        guard count <= 100_000 else { throw HEIFMetadata.broken("it lists too many items") }
        for _ in 0..<count {
            let item = UInt32(version < 2 ? try reader.uint(2) : try reader.uint(4))
            let method = version >= 1 ? try reader.uint(2) & 0xF : 0
            try reader.skip(2)  // data_reference_index
            let base = try reader.uint(baseSize)
            let extentCount = try reader.uint(2)
            var extents: [Extent] = []
            for _ in 0..<extentCount {
                try reader.skip(indexSize)
                let offset = try reader.uint(offsetSize)
                let length = try reader.uint(lengthSize)
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard !overflow else { throw HEIFMetadata.broken("an item lies past the end") }
                extents.append(Extent(method: method, offset: start, length: length))
            }
            if !extents.isEmpty { self.extents.append((item, extents)) }
        }
    }
}

/// Big-endian fields read in order from a range of a file, never past its end.
private struct Reader {
    let file: [UInt8]
    var at: Int
    let end: Int

    init(_ file: [UInt8], _ range: Range<Int>) { (self.file, at, end) = (file, range.lowerBound, range.upperBound) }

    mutating func byte() throws -> UInt8 { UInt8(try uint(1)) }

    /// An unsigned number of `size` bytes (0 reads nothing and is 0); at most 2⁶² - 1.
    mutating func uint(_ size: Int) throws -> Int {
        guard size >= 0, size <= 8, at + size <= end else { throw HEIFMetadata.broken("a box is cut short") }
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(file[at + index]) }
        at += size
        guard value < 1 << 62 else { throw HEIFMetadata.broken("a size is out of range") }
        return Int(value)
    }

    mutating func skip(_ count: Int) throws {
        guard count >= 0, at + count <= end else { throw HEIFMetadata.broken("a box is cut short") }
        at += count
    }

    mutating func fourCC() throws -> String {
        try skip(4)
        return String(decoding: file[(at - 4)..<at], as: UTF8.self)
    }

    /// A string ended by a zero byte (or by the end of the box).
    mutating func string() throws -> String {
        let start = at
        while at < end, file[at] != 0 { at += 1 }
        defer { if at < end { at += 1 } }
        return String(decoding: file[start..<at], as: UTF8.self)
    }
}
