import Foundation

/// A TIFF's metadata (`ImageMetadata`): each directory of the image keeps the tags its pixels need
/// (`kept`: sizes, layout, strips and tiles, colour, resolution, orientation, the ICC profile) and
/// loses every other (EXIF, GPS and GeoTIFF, XMP, IPTC, Photoshop, maker, model, software, dates,
/// descriptions). A tag is taken out of its directory in place, the later entries moving up, and
/// the bytes of what it held (a GPS or EXIF directory and its values) are zeroed where no kept tag
/// or pixel reads them, so nothing else moves. BigTIFF is left as it is.
enum TIFFMetadata {
    /// The stripped file as pieces; nil when there is nothing to strip.
    static func strip(_ tiff: Data) throws -> [ImageMetadata.Piece]? {
        var file = [UInt8](tiff)
        guard file.count >= 8, file[0] == file[1], file[0] == 0x49 || file[0] == 0x4D else {
            throw broken("it does not start as a TIFF")
        }
        let reader = Fields(file: file, little: file[0] == 0x49)
        let magic = try reader.u16(2)
        if magic == 43 { return nil }  // BigTIFF
        guard magic == 42 else { throw broken("it does not start as a TIFF") }

        // The image's directories, in the chain from the header (at most 1,000, each once).
        var directories: [Int] = []
        var next = try reader.u32(4)
        while next != 0, directories.count < 1_000, !directories.contains(next) {
            guard next + 2 <= file.count else { throw broken("a directory lies past the end") }
            directories.append(next)
            let count = try reader.u16(next)
            next = next + 2 + count * 12 + 4 <= file.count ? try reader.u32(next + 2 + count * 12) : 0
        }
        var entries: [(directory: Int, entries: [Entry])] = []
        for directory in directories { entries.append((directory, try reader.entries(at: directory))) }

        // What stays read: the directories, the kept entries' values, and the pixels.
        var kept: [Range<Int>] = []
        var zeroed: [Range<Int>] = []
        for (directory, list) in entries {
            kept.append(directory..<(directory + 2 + list.count * 12 + 4))
            for entry in list {
                if Self.kept.contains(entry.tag) {
                    if let range = entry.outOfLine { kept.append(range) }
                    if [273, 279, 324, 325].contains(entry.tag) { kept += try reader.pixelRanges(list) }
                } else {
                    zeroed += try reader.held(by: entry, depth: 0)
                }
            }
        }

        var changed = false
        for (directory, list) in entries {
            let keep = list.filter { Self.kept.contains($0.tag) }
            guard keep.count < list.count else { continue }
            changed = true
            // The kept entries, in their order, then the next directory's offset, then zeros.
            let chain = Array(file[(directory + 2 + list.count * 12)..<(directory + 2 + list.count * 12 + 4)])
            var rewritten = reader.bytes16(keep.count)
            for entry in keep { rewritten += file[entry.at..<(entry.at + 12)] }
            rewritten += chain
            rewritten += [UInt8](repeating: 0, count: (list.count - keep.count) * 12)
            file.replaceSubrange(directory..<(directory + rewritten.count), with: rewritten)
        }
        let read = merged(kept)
        for range in zeroed {
            // The part of `range` no kept range covers.
            var at = range.lowerBound
            for covered in read where covered.upperBound > at && covered.lowerBound < range.upperBound {
                changed = zero(at..<max(at, covered.lowerBound), in: &file) || changed
                at = max(at, covered.upperBound)
            }
            if at < range.upperBound { changed = zero(at..<range.upperBound, in: &file) || changed }
        }
        return changed ? [.made(file)] : nil
    }

    /// Zeroes `range`; whether a byte changed.
    static func zero(_ range: Range<Int>, in file: inout [UInt8]) -> Bool {
        guard !range.isEmpty, file[range].contains(where: { $0 != 0 }) else { return false }
        file.replaceSubrange(range, with: [UInt8](repeating: 0, count: range.count))
        return true
    }

    /// `ranges` sorted and joined where they meet.
    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// The tags a picture needs to be drawn as it was (baseline and extension TIFF).
    static let kept: Set<Int> = [
        254, 255, 256, 257, 258, 259, 262, 263, 264, 265, 266, 273, 274, 277, 278, 279, 280, 281, 282, 283, 284, 286, 287,
        290, 291, 292, 293, 296, 297, 301, 317, 318, 319, 320, 321, 322, 323, 324, 325, 332, 333, 334, 336, 338, 339, 340, 341,
        347, 512, 513, 514, 515, 517, 518, 519, 520, 521, 529, 530, 531, 532, 34675,
    ]

    /// Tags whose value is the offset of a directory of their own: EXIF, GPS, interoperability.
    static let directoryPointers: Set<Int> = [34665, 34853, 40965]

    static func broken(_ why: String) -> Error { ImageMetadata.broken("TIFF", why) }
}

/// One 12-byte directory entry.
private struct Entry {
    var at: Int
    var tag: Int
    var type: Int
    var count: Int
    /// Where its value lies when it is not in the entry itself.
    var outOfLine: Range<Int>?
    var valueOffset: Int
}

/// Numbers read from the file in its byte order, never past its end.
private struct Fields {
    let file: [UInt8]
    let little: Bool

    func u16(_ at: Int) throws -> Int {
        guard at >= 0, at + 2 <= file.count else { throw TIFFMetadata.broken("a field lies past the end") }
        return little ? Int(file[at]) | Int(file[at + 1]) << 8 : Int(file[at]) << 8 | Int(file[at + 1])
    }

    func u32(_ at: Int) throws -> Int {
        let (first, second) = (try u16(at), try u16(at + 2))
        return little ? second << 16 | first : first << 16 | second
    }

    func bytes16(_ value: Int) -> [UInt8] {
        let (high, low) = (UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
        return little ? [low, high] : [high, low]
    }

    static let typeSizes: [Int: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4]

    /// The entries of the directory at `at`.
    func entries(at directory: Int) throws -> [Entry] {
        let count = try u16(directory)
        guard directory + 2 + count * 12 + 4 <= file.count else { throw TIFFMetadata.broken("a directory lies past the end") }
        return try (0..<count).map { index in
            let at = directory + 2 + index * 12
            let (tag, type, values) = (try u16(at), try u16(at + 2), try u32(at + 4))
            let size = (Self.typeSizes[type] ?? 1).multipliedReportingOverflow(by: values)
            let valueOffset = try u32(at + 8)
            var outOfLine: Range<Int>?
            if !size.overflow, size.partialValue > 4 {
                let end = min(file.count, valueOffset + min(size.partialValue, file.count))
                outOfLine = min(valueOffset, file.count)..<max(min(valueOffset, file.count), end)
            }
            return Entry(at: at, tag: tag, type: type, count: values, outOfLine: outOfLine, valueOffset: valueOffset)
        }
    }

    /// What a dropped entry held: its value, and for a directory pointer that directory and all
    /// it holds (an EXIF directory's interoperability one too).
    func held(by entry: Entry, depth: Int) throws -> [Range<Int>] {
        var ranges = entry.outOfLine.map { [$0] } ?? []
        guard TIFFMetadata.directoryPointers.contains(entry.tag), depth < 3, entry.valueOffset + 2 <= file.count,
            let list = try? entries(at: entry.valueOffset)
        else { return ranges }
        ranges.append(entry.valueOffset..<(entry.valueOffset + 2 + list.count * 12 + 4))
        for inner in list { ranges += try held(by: inner, depth: depth + 1) }
        return ranges
    }

    /// The strips or tiles a directory's offsets and byte counts say its pixels are in.
    func pixelRanges(_ list: [Entry]) throws -> [Range<Int>] {
        func values(_ tag: Int) throws -> [Int] {
            guard let entry = list.first(where: { $0.tag == tag }), entry.count <= 1_000_000 else { return [] }
            let size = entry.type == 3 ? 2 : 4
            let start = entry.outOfLine?.lowerBound ?? entry.at + 8
            return try (0..<entry.count).map { index in
                size == 2 ? try u16(start + index * 2) : try u32(start + index * 4)
            }
        }
        var ranges: [Range<Int>] = []
        for (offsets, counts) in [(273, 279), (324, 325)] {
            for (offset, count) in zip(try values(offsets), try values(counts)) where offset < file.count {
                ranges.append(offset..<min(file.count, offset + min(count, file.count)))
            }
        }
        return ranges
    }
}
