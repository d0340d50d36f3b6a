import FeedsAPI
import FeedsCore
import FeedsUploads
import Logging

/// The generated `APIProtocol`, implemented over an `ActivityStore`. Errors are thrown as
/// `FeedsError`; `APIErrorMiddleware` renders them.
struct FeedsAPIImplementation<Store: ActivityStore>: APIProtocol {
    let store: Store
    let uploads: UploadPipeline
    let idempotency: Idempotency
    let settingsStore: any AppSettingsStore
    let realtime: Realtime
    let rateLimiter: RateLimiter

    /// An activity as the wire shows it.
    func wire(_ activity: Activity) throws -> Components.Schemas.ActivityResponse {
        try Wire.activity(activity, urls: uploads.urls)
    }

    /// The scope the middlewares set for this request, with its authenticated principal.
    var request: AuthenticatedRequest {
        get throws {
            guard let scope = RequestScope.current, let principal = scope.principal else {
                throw FeedsError(.internal, "handler ran outside an authenticated request scope")
            }
            return AuthenticatedRequest(principal: principal, logger: scope.logger, scope: scope)
        }
    }
}

/// The parts of the request scope a handler uses.
struct AuthenticatedRequest {
    let principal: Principal
    let logger: Logger
    let scope: RequestScope

    var duration: String { scope.duration }

    /// The user the request acts for; the server must name one.
    func actingUser(_ requested: String?) throws -> String {
        guard let user = try principal.actingUser(requested: requested) else {
            throw FeedsError.input("user_id is required for server-side requests", field: "user_id")
        }
        return user
    }

    /// Whose `own_*` fields a read shows: a user token's user; for the server, the user it names,
    /// or the server itself.
    func viewer(named userID: String?) throws -> Principal {
        try principal.actingUser(requested: userID).map(Principal.user) ?? .server
    }
}
