import FeedsCore
import FeedsWire
import Foundation
import HTTPTypes
import Hummingbird

/// Counts every API request against its caller's budgets (`RateLimiter`): the user's or the
/// server's, and the client address's, for the class of its operation (a multipart create counts
/// as an upload). Answers say where the caller stands in `X-RateLimit-Limit`, `-Remaining` and
/// `-Reset`, as Stream's do; one over a limit gets 429 with code 9 and `Retry-After`, and is not
/// run. After the auth middleware, which names the caller; an anonymous one (CreateGuest) counts
/// against its address alone.
struct RateLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard let scope = RequestScope.current, let operation = APIOperation.matching(request.method, path: request.uri.path[...])
        else {
            return try await next(request, context)
        }
        var kind = operation.rateLimitClass
        if kind == .write, request.headers[.contentType]?.lowercased().hasPrefix("multipart/") == true { kind = .upload }
        var callers: [RateLimiter.Caller] = scope.principal.map { [$0.userID.map { .user($0) } ?? .server] } ?? []
        if let address = request.headers[RequestHeadNormalizer.peerAddress] { callers.append(.address(address)) }
        guard let quota = limiter.take(kind, by: callers) else { return try await next(request, context) }
        if quota.exceeded {
            let error = FeedsError(
                .rateLimited,
                "too many \(kind.rawValue) requests: \(quota.limit) per \(limiter.limits.windowSeconds) s; "
                    + "the window ends at \(quota.reset) (X-RateLimit-Reset)")
            var response = APIErrorBody.response(for: error, duration: scope.duration)
            quota.describe(in: &response.headers)
            response.headers[.retryAfter] = String(max(1, quota.reset - Int(Date().timeIntervalSince1970)))
            return response
        }
        var response = try await next(request, context)
        quota.describe(in: &response.headers)
        return response
    }
}

extension RateLimiter.Quota {
    /// Where the caller stands, in Stream's headers.
    func describe(in headers: inout HTTPFields) {
        headers[.rateLimitLimit] = String(limit)
        headers[.rateLimitRemaining] = String(remaining)
        headers[.rateLimitReset] = String(reset)
    }
}

extension HTTPField.Name {
    static let rateLimitLimit = Self("X-RateLimit-Limit")!
    static let rateLimitRemaining = Self("X-RateLimit-Remaining")!
    static let rateLimitReset = Self("X-RateLimit-Reset")!
}
