import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// Registers the generated handlers on the router and remembers their routes.
struct RecordingTransport<Context: RequestContext>: ServerTransport {
    let router: Router<Context>
    let routes: KnownRoutes

    func register(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        routes.record(method: method, path: path)
        router.register(handler, method: method, path: path)
    }
}
