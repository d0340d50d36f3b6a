import FeedsCore
import Hummingbird
import NIOCore
@_spi(Generated) import OpenAPIRuntime
import Testing

@testable import FeedsHTTP

/// Parts read from a request body: a file part's bytes are the buffers the body came in, not
/// copies; every other body is read as the runtime reads it.
@Suite struct MultipartReaderTests {
    static let boundary = "b0undary"

    /// A request body of `buffers`, as the server hands them on.
    static func body(_ buffers: [ByteBuffer]) -> RequestBody {
        RequestBody(
            asyncSequence: AsyncStream { continuation in
                for buffer in buffers { continuation.yield(buffer) }
                continuation.finish()
            })
    }

    static func part(_ name: String, _ body: String) -> String {
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(body)\r\n"
    }

    @Test func aFilePartsBytesAreTheBuffersTheyCameIn() async throws {
        let file = ByteBuffer(bytes: (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let buffers = [
            ByteBuffer(string: "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n"), file,
            ByteBuffer(string: "\r\n" + Self.part("user", #"{"id":"u"}"#) + "--\(Self.boundary)--\r\n"),
        ]
        let reader = MultipartReader(body: Self.body(buffers), boundary: Self.boundary)
        let fast = FastMultipart(reader: reader, converter: Converter(configuration: .init()))
        try await FastMultipart.$current.withValue(fast) {
            let first = try #require(try await reader.nextPart())
            var chunks: [ByteBuffer] = []
            for try await chunk in await PartBytes(of: first.body) { chunks.append(chunk) }
            #expect(chunks.count == 1)
            #expect(chunks.first == file)
            #expect(chunks.first?.withUnsafeReadableBytes(\.baseAddress) == file.withUnsafeReadableBytes(\.baseAddress))

            // The next part is read as the runtime reads a body: copied, and the same bytes.
            let second = try #require(try await reader.nextPart())
            #expect(second.headerFields[.contentDisposition] == #"form-data; name="user""#)
            #expect(try await String(collecting: second.body, upTo: 100) == #"{"id":"u"}"#)
            #expect(try await reader.nextPart() == nil)
        }
    }

    @Test func aBodyNotBeingReadIsCopiedFromItsOwnChunks() async throws {
        let text = Self.part("a", "first") + Self.part("b", "second") + "--\(Self.boundary)--\r\n"
        let reader = MultipartReader(body: Self.body([ByteBuffer(string: text)]), boundary: Self.boundary)
        let fast = FastMultipart(reader: reader, converter: Converter(configuration: .init()))
        try await FastMultipart.$current.withValue(fast) {
            let first = try #require(try await reader.nextPart())
            // An unread part is skipped when the next is asked for.
            let second = try #require(try await reader.nextPart())
            #expect(await !reader.isCurrentBody(first.body))
            #expect(await reader.isCurrentBody(second.body))
            var bytes: [UInt8] = []
            for try await chunk in await PartBytes(of: second.body) { bytes += chunk.readableBytesView }
            #expect(bytes == Array("second".utf8))

            let other = HTTPBody("not a part")
            var copied: [UInt8] = []
            for try await chunk in await PartBytes(of: other) { copied += chunk.readableBytesView }
            #expect(copied == Array("not a part".utf8))
        }
    }
}
