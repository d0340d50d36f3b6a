import FeedsAuth
import FeedsCore
import HTTPTypes
import Hummingbird

/// Authenticates every `/api/` request and puts the principal in the request scope.
struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let authenticator: Authenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard request.uri.path.hasPrefix("/api/"), var scope = RequestScope.current else {
            return try await next(request, context)
        }
        scope.principal = try await authenticator.authenticate(
            apiKey: request.uri.queryParameters["api_key"].map(String.init),
            authorization: request.headers[.authorization],
            authType: request.headers[.streamAuthType]
        )
        scope.logger[metadataKey: "principal"] = .string(scope.principal?.userID ?? "server")
        return try await RequestScope.$current.withValue(scope) {
            try await next(request, context)
        }
    }
}

extension HTTPField.Name {
    static let streamAuthType = Self("Stream-Auth-Type")!
}
