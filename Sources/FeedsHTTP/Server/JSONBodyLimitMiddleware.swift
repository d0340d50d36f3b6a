import FeedsCore
import Hummingbird
import NIOCore

/// JSON bodies are read whole by the decoder, so they are capped (1 MB) before it sees them.
struct JSONBodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let limit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard request.method != .get, request.method != .head,
            !(request.headers[.contentType] ?? "").prefix(10).equalsIgnoringASCIICase("multipart/")
        else {
            return try await next(request, context)
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw FeedsError(.payloadTooLarge, "request body is \(length) bytes; JSON bodies may be at most \(limit)")
        }
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: limit)
            request.body = .init(buffer: buffer)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw FeedsError(.payloadTooLarge, "JSON bodies may be at most \(limit) bytes")
        } catch is NIOTooManyBytesError {
            // Sent chunked: no length to refuse up front, so the cap is met while reading.
            throw FeedsError(.payloadTooLarge, "JSON bodies may be at most \(limit) bytes")
        }
        return try await next(request, context)
    }
}
