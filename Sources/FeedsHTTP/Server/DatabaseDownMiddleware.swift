import FeedsCore
import Hummingbird

/// While the probe finds the database down, API requests are answered 503 (Retry-After) at once
/// rather than each waiting out its deadline for a connection that will not come.
struct DatabaseDownMiddleware<Context: RequestContext>: RouterMiddleware {
    let probe: any DatabaseHealth

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        if probe.isDown, request.uri.path.hasPrefix("/api/") { throw FeedsError.databaseDown }
        return try await next(request, context)
    }
}
