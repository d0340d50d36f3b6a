import NIOCore
import OpenAPIRuntime

/// A part's body as NIO buffers: for a part the fast parser handed out, the buffers read from the
/// socket themselves, so that a file goes from the socket to its temp file without a copy into
/// the runtime's byte arrays; for any other body, its chunks copied.
struct PartBytes: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    private let source: Source

    private enum Source: Sendable {
        case reader(MultipartReader)
        case body(HTTPBody)
    }

    /// The bytes of `body`, a part's body.
    init(of body: HTTPBody) async {
        if let reader = FastMultipart.current?.reader, await reader.isCurrentBody(body) {
            source = .reader(reader)
        } else {
            source = .body(body)
        }
    }

    /// The current part's body, pulled from `reader`.
    init(reader: MultipartReader) {
        source = .reader(reader)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate var reader: MultipartReader?
        fileprivate var body: HTTPBody.AsyncIterator?

        mutating func next() async throws -> ByteBuffer? {
            if let reader { return try await reader.nextBodyChunk() }
            return try await body?.next().map { ByteBuffer(bytes: $0) }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .reader(let reader): AsyncIterator(reader: reader)
        case .body(let body): AsyncIterator(body: body.makeAsyncIterator())
        }
    }
}
