import FeedsCore
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIRuntime

/// Reads a streamed `multipart/form-data` request body part by part with `MultipartScanner`: the
/// headers of the next part, then its body a buffer at a time, as the buffers came from the socket.
/// A part's unread body is skipped when the next part is asked for. One consumer at a time, as a
/// handler's `for await` loop is.
actor MultipartReader {
    private var upstream: RequestBody.AsyncIterator
    private var scanner: MultipartScanner
    private var upstreamEnded = false
    private var finished = false
    /// The body handed out with the part being read, whose bytes `PartBytes` may take as they
    /// are; nil between parts.
    private var currentBody: ObjectIdentifier?
    private var inBody: Bool { currentBody != nil }

    init(body: RequestBody, boundary: String) {
        upstream = body.makeAsyncIterator()
        scanner = MultipartScanner(boundary: boundary)
    }

    /// The next part, or nil after the last. Its body's chunks are copies (the OpenAPI runtime's
    /// byte arrays): a file part is read through `PartBytes` instead, which takes the buffers.
    func nextPart() async throws -> MultipartRawPart? {
        while inBody { _ = try await nextBodyChunk() }
        guard !finished else { return nil }
        switch try await nextEvent() {
        case .part(let fields):
            let body = HTTPBody(
                PartBytes(reader: self).map { ArraySlice($0.readableBytesView) }, length: .unknown,
                iterationBehavior: .single)
            currentBody = ObjectIdentifier(body)
            return MultipartRawPart(headerFields: fields, body: body)
        case .end:
            finished = true
            return nil
        case .body, .partEnd, .needMore:
            throw FeedsError(.internal, "multipart reader lost its place")
        }
    }

    /// Whether `body` is the body of the part being read.
    func isCurrentBody(_ body: HTTPBody) -> Bool {
        currentBody == ObjectIdentifier(body)
    }

    /// The next bytes of the current part's body, or nil at its end.
    func nextBodyChunk() async throws -> ByteBuffer? {
        guard inBody else { return nil }
        switch try await nextEvent() {
        case .body(let bytes):
            return bytes
        case .partEnd:
            currentBody = nil
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
