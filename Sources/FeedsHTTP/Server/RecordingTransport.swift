import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// Registers the generated handlers on the router and remembers their routes. Operations with a
/// hand-written route (`FeedPageRoutes`) are remembered but left to it.
struct RecordingTransport<Context: RequestContext>: ServerTransport {
    let router: Router<Context>
    let routes: KnownRoutes
    var handWritten: [(method: HTTPRequest.Method, path: String)] = []

    func register(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        routes.record(method: method, path: path)
        guard !handWritten.contains(where: { $0.method == method && $0.path == path }) else { return }
        router.register(handler, method: method, path: path)
    }
}
