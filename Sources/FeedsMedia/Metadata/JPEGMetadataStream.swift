import FeedsCore

#if canImport(Glibc)
    import Glibc
#endif

/// A JPEG's metadata stripped as its bytes arrive (`JPEGMetadata` says what stays), so that an
/// upload is written and hashed once, already stripped. Between chunks it carries at most one
/// unfinished segment (64 KB); the image data passes through as ranges of the chunks fed.
///
/// The orientation stays as an EXIF of that tag alone, written where the first EXIF was: readers
/// look for it in every APP1 before the image data, so nothing has to be held back to put it first.
public struct JPEGMetadataStream: Sendable {
    /// What to write for a chunk, in order.
    public enum Output: Equatable, Sendable {
        /// Bytes of the chunk just fed.
        case chunk(Range<Int>)
        /// Bytes made here, or carried over from earlier chunks.
        case made([UInt8])
    }

    /// Whether anything has been left out.
    public private(set) var stripped = false

    /// Whether the bytes began as a JPEG's (once two have come).
    public var isJPEG: Bool { place != .start && place != .other }

    private enum Place { case start, segments, scan, trailing, other }
    private var place = Place.start
    private let passingOtherFilesThrough: Bool
    /// A marker or segment cut by the end of a chunk, carried to the next.
    private var carried: [UInt8] = []
    /// A chunk ended on 0xFF inside a scan: data, or a marker's first byte, as the next byte says.
    private var scanEndsInFF = false
    /// The first EXIF's orientation was read (or one was kept as a strip leaves it).
    private var orientationSettled = false
    /// An orientation-only EXIF is in the output.
    private var orientationWritten = false
    private var total = 0

    /// `passingOtherFilesThrough`: bytes that do not begin as a JPEG's pass unchanged, rather
    /// than being refused.
    public init(passingOtherFilesThrough: Bool = false) {
        self.passingOtherFilesThrough = passingOtherFilesThrough
    }

    /// How many bytes are carried to the next chunk.
    var carriedCount: Int { carried.count }

    /// What to write of `chunk`.
    ///
    /// - Throws: `FeedsError.input` when the structure is broken (`ImageMetadata.strip`).
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) throws -> [Output] {
        total += chunk.count
        var out: [Output] = []
        var at = 0
        while at < chunk.count {
            switch place {
            case .start:
                carried.append(chunk[at])
                at += 1
                guard carried.count == 2 else { continue }
                if carried == [0xFF, 0xD8] {
                    place = .segments
                } else if passingOtherFilesThrough {
                    place = .other
                } else {
                    throw broken("it does not start as a JPEG")
                }
                out.append(.made(carried))
                carried = []
            case .segments:
                at = try segment(chunk, from: at, into: &out)
            case .scan:
                at = scan(chunk, from: at, into: &out)
            case .trailing:
                // Whatever follows the end of the image (phones keep depth maps and second images there).
                stripped = true
                at = chunk.count
            case .other:
                out.append(.chunk(at..<chunk.count))
                at = chunk.count
            }
        }
        return out
    }

    /// What is left to write once every chunk is fed.
    public mutating func finish() throws -> [Output] {
        if passingOtherFilesThrough, !isJPEG {
            defer { carried = [] }
            return carried.isEmpty ? [] : [.made(carried)]
        }
        guard total >= 4, place != .start else { throw broken("it does not start as a JPEG") }
        var out: [Output] = []
        if place == .scan, scanEndsInFF { out.append(.made([0xFF])) }
        if place == .segments, !carried.isEmpty {
            // A file cut off keeps what it has, but no metadata.
            let bytes = carried
            try bytes.withUnsafeBytes { bytes in
                guard case .incomplete(let fill, _) = try Unit.parse(bytes) else { return }
                guard fill + 1 < bytes.count else { throw broken("it ends inside a marker") }
                if fill + 4 > bytes.count {
                    out.append(.made(Array(bytes[fill...])))
                } else {
                    let unit = Unit(marker: bytes[fill + 1], start: fill, end: bytes.count, hasLength: true)
                    take(unit, in: bytes, as: { .made(Array(bytes[$0])) }, into: &out)
                }
            }
        }
        carried = []
        return out
    }

    /// Takes the marker or segment at `start`, whole or carried on; returns where the next begins.
    private mutating func segment(_ chunk: UnsafeRawBufferPointer, from start: Int, into out: inout [Output]) throws -> Int {
        if carried.isEmpty {
            let rest = UnsafeRawBufferPointer(rebasing: chunk[start...])
            switch try Unit.parse(rest) {
            case .complete(let unit):
                take(unit, in: rest, as: { .chunk((start + $0.lowerBound)..<(start + $0.upperBound)) }, into: &out)
                return start + unit.end
            case .incomplete(let fill, _):
                // Fill bytes before a marker are never written, so a run of them is carried as one.
                carried = Array(rest[fill...])
                return chunk.count
            }
        }
        var at = start
        while true {
            let parsed = try carried.withUnsafeBytes { try Unit.parse($0) }
            switch parsed {
            case .complete(let unit):
                let bytes = carried
                carried = []
                bytes.withUnsafeBytes { bytes in take(unit, in: bytes, as: { .made(Array(bytes[$0])) }, into: &out) }
                return at
            case .incomplete(let fill, let needed):
                if fill > 0 { carried.removeFirst(fill) }
                if carried == [0xFF] {
                    while at < chunk.count, chunk[at] == 0xFF { at += 1 }
                }
                guard at < chunk.count else { return at }
                let count = min(needed - fill - carried.count, chunk.count - at)
                carried.append(contentsOf: chunk[at..<(at + max(count, 1))])
                at += max(count, 1)
            }
        }
    }

    /// Writes or leaves out one marker or segment of `bytes`; `output` says how to write a range of them.
    private mutating func take(
        _ unit: Unit, in bytes: UnsafeRawBufferPointer, as output: (Range<Int>) -> Output, into out: inout [Output]
    ) {
        let whole = unit.start..<unit.end
        guard unit.hasLength else {
            out.append(output(whole))
            if unit.marker == 0xD9 { place = .trailing }
            return
        }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[(unit.start + 4)..<unit.end])
        switch JPEGMetadata.verdict(unit.marker, payload) {
        case .keep:
            out.append(output(whole))
        case .keepOrientation:
            // What a strip leaves, kept as it is, so that stripping twice changes nothing.
            if orientationWritten {
                stripped = true
            } else {
                out.append(output(whole))
                (orientationSettled, orientationWritten) = (true, true)
            }
        case .drop(let orientation):
            stripped = true
            if !orientationSettled, let orientation {
                orientationSettled = true
                if orientation != 1 {
                    out.append(.made(JPEGMetadata.exifSegment(orientation: orientation)))
                    orientationWritten = true
                }
            }
        }
        if unit.marker == 0xDA { place = .scan }
    }

    /// Passes a scan's entropy-coded data through up to the next marker (not a stuffed 0xFF00, a
    /// restart marker, or fill); returns where that marker starts.
    private mutating func scan(_ chunk: UnsafeRawBufferPointer, from start: Int, into out: inout [Output]) -> Int {
        if scanEndsInFF {
            scanEndsInFF = false
            let next = chunk[start]
            guard next == 0x00 || next == 0xFF || (0xD0...0xD7).contains(next) else {
                carried = [0xFF]
                place = .segments
                return start
            }
            out.append(.made([0xFF]))
        }
        var at = start
        while at < chunk.count {
            guard let hit = memchr(chunk.baseAddress! + at, 0xFF, chunk.count - at) else { break }
            let found = chunk.baseAddress!.distance(to: UnsafeRawPointer(hit))
            guard found + 1 < chunk.count else {
                if start < found { out.append(.chunk(start..<found)) }
                scanEndsInFF = true
                return chunk.count
            }
            let next = chunk[found + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) {
                at = found + 2
            } else if next == 0xFF {
                at = found + 1
            } else {
                if start < found { out.append(.chunk(start..<found)) }
                place = .segments
                return found
            }
        }
        if start < chunk.count { out.append(.chunk(start..<chunk.count)) }
        return chunk.count
    }

    private func broken(_ why: String) -> FeedsError { ImageMetadata.broken("JPEG", why) }
}

/// A marker, or a segment (a marker and its length), at the start of some bytes after any fill.
private struct Unit {
    var marker: UInt8
    /// Where the marker is, after the fill bytes (0xFF) before it.
    var start: Int
    var end: Int
    var hasLength: Bool

    enum Parsed {
        case complete(Unit)
        /// `needed` bytes in all would say more; the first `fill` are fill bytes.
        case incomplete(fill: Int, needed: Int)
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) throws -> Parsed {
        guard !bytes.isEmpty else { return .incomplete(fill: 0, needed: 1) }
        guard bytes[0] == 0xFF else { throw ImageMetadata.broken("JPEG", "a segment does not start with a marker") }
        var start = 0
        while start + 1 < bytes.count, bytes[start + 1] == 0xFF { start += 1 }
        guard start + 1 < bytes.count else { return .incomplete(fill: start, needed: start + 2) }
        let marker = bytes[start + 1]
        // End of image, restart markers and TEM stand alone.
        if marker == 0xD9 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
            return .complete(Unit(marker: marker, start: start, end: start + 2, hasLength: false))
        }
        guard start + 4 <= bytes.count else { return .incomplete(fill: start, needed: start + 4) }
        let length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
        guard length >= 2 else { throw ImageMetadata.broken("JPEG", "a segment is shorter than its own length") }
        guard start + 2 + length <= bytes.count else { return .incomplete(fill: start, needed: start + 2 + length) }
        return .complete(Unit(marker: marker, start: start, end: start + 2 + length, hasLength: true))
    }
}
