import FeedsCore
import HTTPTypes
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// The framing of a `multipart/form-data` body, found with `memchr` and `memcmp` a chunk at a
/// time: part headers, then body bytes handed out as slices of the buffers they came in from the
/// socket. A chunk is copied only when bytes of the one before are still held: part headers, or a
/// chunk's last bytes that may begin a delimiter the next one completes. Feed it chunks with
/// `append`, take events with `next` until `.needMore`.
struct MultipartScanner {
    enum Event: Equatable {
        /// A new part begins with these header fields.
        case part(HTTPFields)
        /// Bytes of the current part's body.
        case body(ByteBuffer)
        /// The current part's body is complete.
        case partEnd
        /// The closing delimiter: no more parts.
        case end
        /// Nothing more can be said before the next chunk.
        case needMore
    }

    private enum State {
        case preamble, afterDelimiter, headers, body, bodyEnded, done
    }

    /// Part headers larger than this are refused rather than buffered without end.
    static let maxHeaderBytes = 16 * 1024

    /// `CRLF--boundary`: the first one needs no CRLF, so the buffer starts with one.
    private let delimiter: [UInt8]
    private var buffer = ByteBuffer(bytes: [13, 10])
    private var state = State.preamble

    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    mutating func append(_ chunk: ByteBuffer) {
        if buffer.readableBytes == 0 { buffer = chunk } else { buffer.writeImmutableBuffer(chunk) }
    }

    /// The next event; `atEnd` says no chunk will follow, which turns `.needMore` into an error.
    mutating func next(atEnd: Bool) throws(FeedsError) -> Event {
        let event = try step()
        if event == .needMore, atEnd {
            throw FeedsError.input("the multipart body ends before its closing boundary")
        }
        return event
    }

    private mutating func step() throws(FeedsError) -> Event {
        switch state {
        case .done:
            return .end
        case .preamble:
            guard let at = find(delimiter) else {
                keepTail(delimiter.count - 1)
                return .needMore
            }
            consume(through: at + delimiter.count)
            state = .afterDelimiter
            return try step()
        case .afterDelimiter:
            guard buffer.readableBytes >= 2 else { return .needMore }
            if buffer.readableBytesView.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) {
                state = .done
                buffer = ByteBuffer()
                return .end
            }
            guard let crlf = find([13, 10]) else {
                guard buffer.readableBytes < 256 else { throw FeedsError.input("a multipart boundary line is malformed") }
                return .needMore
            }
            // Transport padding (spaces, tabs) may follow a boundary; nothing else may.
            guard buffer.readableBytesView.prefix(crlf).allSatisfy({ $0 == 32 || $0 == 9 }) else {
                throw FeedsError.input("a multipart boundary line is malformed")
            }
            consume(through: crlf + 2)
            state = .headers
            return try step()
        case .headers:
            let end: Int
            if buffer.readableBytesView.starts(with: [13, 10]) {
                end = 0
            } else if let at = find([13, 10, 13, 10]) {
                end = at + 2
            } else {
                guard buffer.readableBytes <= Self.maxHeaderBytes else {
                    throw FeedsError.input("multipart part headers are larger than \(Self.maxHeaderBytes) bytes")
                }
                return .needMore
            }
            let fields = try Self.headerFields(ArraySlice(buffer.readableBytesView.prefix(end)))
            consume(through: end + 2)
            state = .body
            return .part(fields)
        case .body:
            if let at = find(delimiter) {
                let chunk = buffer.readSlice(length: at)!
                buffer.moveReaderIndex(forwardBy: delimiter.count)
                state = .bodyEnded
                return chunk.readableBytes == 0 ? try step() : .body(chunk)
            }
            // All but the bytes that may begin a delimiter split across chunks.
            let keep = partialDelimiter()
            guard buffer.readableBytes > keep else { return .needMore }
            return .body(buffer.readSlice(length: buffer.readableBytes - keep)!)
        case .bodyEnded:
            state = .afterDelimiter
            return .partEnd
        }
    }

    /// The offset of `needle` (two bytes or more) in the buffer: `memchr` to each candidate first
    /// byte, then its second byte, then `memcmp` for the rest. In a file's bytes a CR comes every 256
    /// bytes or so, and the CR LF every 64 KB: the second byte spares nearly every call to `memcmp`.
    private func find(_ needle: [UInt8]) -> Int? {
        buffer.withUnsafeReadableBytes { haystack in
            needle.withUnsafeBytes { needle in
                guard haystack.count >= needle.count, let base = haystack.baseAddress else { return nil }
                let first = Int32(needle[0])
                let second = needle[1]
                var offset = 0
                let last = haystack.count - needle.count
                while offset <= last {
                    guard let hit = memchr(base + offset, first, last - offset + 1) else { return nil }
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    if haystack[at + 1] == second, memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return at }
                    offset = at + 1
                }
                return nil
            }
        }
    }

    /// How many of the buffer's last bytes begin a delimiter: almost always none, so that the
    /// next chunk is taken as it is, not copied behind them.
    private func partialDelimiter() -> Int {
        let bytes = buffer.readableBytesView
        let longest = min(delimiter.count - 1, bytes.count)
        for length in stride(from: longest, to: 0, by: -1) where bytes.suffix(length).elementsEqual(delimiter.prefix(length)) {
            return length
        }
        return 0
    }

    private mutating func consume(through offset: Int) {
        buffer.moveReaderIndex(forwardBy: min(offset, buffer.readableBytes))
    }

    private mutating func keepTail(_ count: Int) {
        if buffer.readableBytes > count { buffer.moveReaderIndex(forwardBy: buffer.readableBytes - count) }
    }

    /// `Name: value` lines, each ended by CRLF.
    static func headerFields(_ bytes: ArraySlice<UInt8>) throws(FeedsError) -> HTTPFields {
        var fields = HTTPFields()
        for line in bytes.split(separator: 10, omittingEmptySubsequences: true) {
            let text = String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":"),
                let name = HTTPField.Name(String(text[..<colon]))
            else { throw FeedsError.input("a multipart part header is malformed") }
            let value = String(text[text.index(after: colon)...].trimmingHeaderSpace())
            fields.append(HTTPField(name: name, value: value))
        }
        return fields
    }
}
