import FeedsCore
import HTTPTypes
import OpenAPIRuntime

/// Reads a streamed `multipart/form-data` body part by part with `MultipartScanner`: the headers
/// of the next part, then its body a chunk at a time. A part's unread body is skipped when the next
/// part is asked for. One consumer at a time, as a handler's `for await` loop is.
actor MultipartReader {
    private var upstream: HTTPBody.AsyncIterator
    private var scanner: MultipartScanner
    private var upstreamEnded = false
    private var inBody = false
    private var finished = false

    init(body: HTTPBody, boundary: String) {
        upstream = body.makeAsyncIterator()
        scanner = MultipartScanner(boundary: boundary)
    }

    /// The header fields of the next part, or nil after the last.
    func nextPart() async throws -> HTTPFields? {
        while inBody { _ = try await nextBodyChunk() }
        guard !finished else { return nil }
        switch try await nextEvent() {
        case .part(let fields):
            inBody = true
            return fields
        case .end:
            finished = true
            return nil
        case .body, .partEnd, .needMore:
            throw FeedsError(.internal, "multipart reader lost its place")
        }
    }

    /// The next bytes of the current part's body, or nil at its end.
    func nextBodyChunk() async throws -> ArraySlice<UInt8>? {
        guard inBody else { return nil }
        switch try await nextEvent() {
        case .body(let bytes):
            return bytes
        case .partEnd:
            inBody = false
            return nil
        case .part, .end, .needMore:
            throw FeedsError(.internal, "multipart reader lost its place")
        }
    }

    private func nextEvent() async throws -> MultipartScanner.Event {
        while true {
            let event = try scanner.next(atEnd: upstreamEnded)
            guard event == .needMore else { return event }
            // An actor cannot await a mutating call on its own property: take the iterator out and back.
            var iterator = upstream
            let chunk = try await iterator.next(isolation: self)
            upstream = iterator
            if let chunk { scanner.append(chunk) } else { upstreamEnded = true }
        }
    }
}

/// One part's body as an async sequence, pulled from the reader.
struct MultipartPartBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let reader: MultipartReader

    struct AsyncIterator: AsyncIteratorProtocol {
        let reader: MultipartReader
        func next() async throws -> ArraySlice<UInt8>? { try await reader.nextBodyChunk() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: reader) }
}
