import FeedsCore
import HTTPTypes
import NIOCore
import Testing

@testable import FeedsHTTP

@Suite struct MultipartScannerTests {
    struct Part: Equatable {
        var fields: HTTPFields
        var body: [UInt8]
    }

    /// Scans `body` fed in chunks of `size` bytes.
    func scan(_ body: [UInt8], boundary: String = "XyZ", chunk size: Int) throws -> [Part] {
        var scanner = MultipartScanner(boundary: boundary)
        var parts: [Part] = []
        var offset = 0
        while true {
            let atEnd = offset >= body.count
            switch try scanner.next(atEnd: atEnd) {
            case .part(let fields): parts.append(Part(fields: fields, body: []))
            case .body(let bytes): parts[parts.count - 1].body += bytes.readableBytesView
            case .partEnd: continue
            case .end: return parts
            case .needMore:
                scanner.append(ByteBuffer(bytes: body[offset..<min(body.count, offset + size)]))
                offset += size
            }
        }
    }

    func form(_ parts: [(String, String)], boundary: String = "XyZ") -> [UInt8] {
        Array(
            (parts.map { "--\(boundary)\r\n\($0.0)\r\n\r\n\($0.1)\r\n" }.joined() + "--\(boundary)--\r\n").utf8)
    }

    @Test func partsAndBodiesComeOutTheSameInAnyChunking() throws {
        let tricky = "line\r\n--XyY-not-quite\r\n-XyZ\r\n--Xy\r\n-- XyZ and \r\n-XyZ"
        let body = form([
            ("Content-Disposition: form-data; name=\"a\"\r\nContent-Type: application/json", #"{"k":1}"#),
            ("Content-Disposition: form-data; name=\"f\"; filename=\"x.bin\"", tricky),
            ("Content-Disposition: form-data; name=\"empty\"", ""),
        ])
        let expected = try scan(body, chunk: body.count)
        #expect(expected.count == 3)
        #expect(expected[0].fields[.contentType] == "application/json")
        #expect(expected[0].body == Array(#"{"k":1}"#.utf8))
        #expect(expected[1].fields[.contentDisposition] == "form-data; name=\"f\"; filename=\"x.bin\"")
        #expect(expected[1].body == Array(tricky.utf8))
        #expect(expected[2].body.isEmpty)
        for size in [1, 2, 3, 5, 8, 13, 64] { #expect(try scan(body, chunk: size) == expected, "chunks of \(size)") }
    }

    /// Bodies made mostly of the delimiter's own bytes and its prefixes come out whole in any
    /// chunking.
    @Test func bodiesOfDelimiterLikeBytesComeOutWhole() throws {
        var generator = SystemRandomNumberGenerator()
        let boundary = "--b0undary-Ab"
        let pieces = ["\r", "\n", "-", "--", "\r\n", "\r\n-", "\r\n--", "\r\n--\(boundary.dropLast())", "b0", "x", "Ab", "y"]
        for _ in 0..<200 {
            let text = (0..<Int.random(in: 0..<60, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
            // Compared as bytes: a String compares characters, and CR LF is one.
            guard Array("\r\n\(text)\r\n".utf8).firstRange(of: Array("\r\n--\(boundary)".utf8)) == nil else { continue }
            let body = form([("Content-Disposition: form-data; name=\"f\"", text), ("X-A: b", "tail")], boundary: boundary)
            for size in [1, 7, 16, body.count] {
                let parts = try scan(body, boundary: boundary, chunk: size)
                #expect(
                    parts.map(\.body) == [Array(text.utf8), Array("tail".utf8)], "\(text.debugDescription), chunks of \(size)")
            }
        }
    }

    /// A file's bytes come out as slices of the buffers they came in, not copies: only bytes that
    /// may begin a delimiter are held back, to be joined to the next buffer.
    @Test func bodyBytesAreSlicesOfTheBuffersTheyCameIn() throws {
        var scanner = MultipartScanner(boundary: "XyZ")
        scanner.append(ByteBuffer(string: "--XyZ\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n"))
        guard case .part = try scanner.next(atEnd: false) else { throw Unexpected() }
        #expect(try scanner.next(atEnd: false) == .needMore)

        let chunk = ByteBuffer(bytes: (0..<100_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        scanner.append(chunk)
        guard case .body(let whole) = try scanner.next(atEnd: false) else { throw Unexpected() }
        #expect(whole == chunk)
        #expect(whole.withUnsafeReadableBytes(\.baseAddress) == chunk.withUnsafeReadableBytes(\.baseAddress))
        #expect(try scanner.next(atEnd: false) == .needMore)

        // "\r\n--X" may begin the delimiter: held back until the next chunk says.
        scanner.append(ByteBuffer(string: "abc\r\n--X"))
        #expect(try scanner.next(atEnd: false) == .body(ByteBuffer(string: "abc")))
        #expect(try scanner.next(atEnd: false) == .needMore)
        scanner.append(ByteBuffer(string: "q\r\n--Xy"))
        #expect(try scanner.next(atEnd: false) == .body(ByteBuffer(string: "\r\n--Xq")))
        scanner.append(ByteBuffer(string: "Z--\r\n"))
        #expect(try scanner.next(atEnd: false) == .partEnd)
        #expect(try scanner.next(atEnd: true) == .end)
    }

    struct Unexpected: Error {}

    @Test func aPreambleAndTransportPaddingAreSkipped() throws {
        let body = Array("ignored preamble\r\n--XyZ  \r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--XyZ--".utf8)
        let parts = try scan(body, chunk: 4)
        #expect(parts.map(\.body) == [Array("v".utf8)])
    }

    @Test func aBodyWithoutItsClosingBoundaryIsRefused() {
        let body = Array("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end".utf8)
        #expect(throws: FeedsError.self) { try scan(body, chunk: 5) }
    }

    @Test func malformedHeadersAndBoundaryLinesAreRefused() {
        let noColon = Array("--XyZ\r\nno colon here\r\n\r\nv\r\n--XyZ--\r\n".utf8)
        let junkAfterBoundary = Array("--XyZjunk\r\n\r\nv\r\n--XyZ--\r\n".utf8)
        let hugeHeader = Array(("--XyZ\r\nX-Big: " + String(repeating: "a", count: 20_000)).utf8)
        for body in [noColon, junkAfterBoundary, hugeHeader] {
            #expect(throws: FeedsError.self) { try scan(body, chunk: 1000) }
        }
    }
}
