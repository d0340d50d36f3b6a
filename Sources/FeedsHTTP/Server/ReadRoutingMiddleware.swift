import FeedsCore
import Hummingbird

/// With read replicas: a read operation's reads go to a replica that may answer its caller
/// (`ReadRouting`), and every other operation marks its caller as a writer, whose reads stay on
/// the primary until the replicas have replayed the write. A JSON body was read whole before
/// (`JSONBodyLimitMiddleware`), so a read the replica failed can run again from the start.
struct ReadRoutingMiddleware<Context: RequestContext>: RouterMiddleware {
    let replicas: any ReadRouting

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard let principal = RequestScope.current?.principal,
            let operation = APIOperation.matching(request.method, path: request.uri.path[...])
        else {
            return try await next(request, context)
        }
        guard operation.readsFromReplica else {
            // After the reply is made, so after every commit of the request, failed or not.
            defer { replicas.wrote(principal) }
            return try await next(request, context)
        }
        return try await replicas.read(as: principal, retryingWhen: Self.mayBeReplicas) {
            try await next(request, context)
        }
    }

    /// An error the replica may have caused: the database's, or one the server did not expect.
    /// The client's own mistakes are the same on the primary.
    static func mayBeReplicas(_ error: any Error) -> Bool {
        [.internal, .unavailable, .gatewayTimeout].contains(ErrorClassifier.classify(error).kind)
    }
}
