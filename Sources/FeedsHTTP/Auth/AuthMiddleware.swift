import FeedsAuth
import FeedsCore
import HTTPTypes
import Hummingbird

/// Authenticates every `/api/` request and puts the principal in the request scope. CreateGuest
/// alone may come anonymous (`Stream-Auth-Type: anonymous`, as the SDKs send it): with the API
/// key, no principal.
struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let authenticator: Authenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard request.uri.path.hasPrefix("/api/"), var scope = RequestScope.current else {
            return try await next(request, context)
        }
        if request.method == .post, request.uri.path == "/api/v2/guest",
            request.headers[.streamAuthType]?.lowercased() == "anonymous"
        {
            try authenticator.checkAPIKey(request.uri.queryParameters["api_key"].map(String.init))
            return try await next(request, context)
        }
        scope.principal = try authenticator.authenticate(
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
