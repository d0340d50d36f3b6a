import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// Registers the generated handlers on the router. The generated handlers of operations with a
/// hand-written route (`FeedPageRoutes`, `AddActivityRoute`) go on `generated` instead, for the
/// hand-written route to hand on what it does not answer itself.
struct GeneratedTransport<Context: RequestContext>: ServerTransport {
    let router: Router<Context>
    var handWritten: [(method: HTTPRequest.Method, path: String)] = []
    var generated = Router(context: Context.self)

    func register(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        let isHandWritten = handWritten.contains { $0.method == method && $0.path == path }
        (isHandWritten ? generated : router).register(handler, method: method, path: path)
    }
}
