import FeedsCore
import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// Registers the generated handlers on the router, each under the request deadline
/// (`withDeadline`): every operation is answered within `deadline`, whatever the database or the
/// store are doing, with 503 and a Retry-After past it. The generated handlers of operations with
/// a hand-written route (`FeedPageRoutes`, `AddActivityRoute`, which put the same deadline on
/// their work) go on `generated` instead, for the hand-written route to hand on what it does not
/// answer itself.
struct GeneratedTransport<Context: RequestContext>: ServerTransport {
    let router: Router<Context>
    var handWritten: [(method: HTTPRequest.Method, path: String)] = []
    var generated = Router(context: Context.self)
    var deadline: Duration = .seconds(10)

    /// Operations whose body streams while they work: answering early would leave it half read,
    /// so they go by the connection's timeouts and their store's budget (`afterBody`).
    static var streaming: Set<String> { ["AddActivity", "UploadFile", "UploadImage"] }

    func register(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        let isHandWritten = handWritten.contains { $0.method == method && $0.path == path }
        (isHandWritten ? generated : router).register(bounded(handler, method: method, path: path), method: method, path: path)
    }

    private func bounded(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method, path: String
    ) -> @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?) {
        let name = APIOperation.matching(method, path: path[...])?.name ?? path
        guard !Self.streaming.contains(name) else { return handler }
        let limit = deadline
        return { request, body, metadata in
            // A multipart comment streams its files as it works, as the streaming operations do.
            if (request.headerFields[.contentType] ?? "").prefix(10).lowercased() == "multipart/" {
                return try await handler(request, body, metadata)
            }
            return try await withDeadline(limit, name) { try await handler(request, body, metadata) }
        }
    }
}
