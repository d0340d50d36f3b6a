import FeedsAPI
import FeedsCore
import FeedsWire
import Foundation
import Hummingbird
import OpenAPIRuntime

/// Turns every error, the framework's own included, into Stream's `APIError` body.
/// A 500 tells the client only its request id; the cause goes to the log.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let scope = RequestScope.current
            var feedsError = ErrorClassifier.classify(error)
            var allow: String?
            if feedsError.kind == .notFound, context.endpointPath == "NotFound" {
                (feedsError, allow) = APIOperation.unmatched(method: request.method, path: request.uri.path)
            }
            if feedsError.kind == .internal {
                (scope?.logger ?? context.logger).error(
                    "request failed", metadata: ["error": "\(LoggedError.describe(error))", "path": "\(request.uri.path)"]
                )
                feedsError.message = "internal error; the server log has the details under request id \(scope?.requestID ?? "-")"
            } else {
                (scope?.logger ?? context.logger).debug("request refused", metadata: ["error": "\(feedsError.message)"])
            }
            var response = APIErrorBody.response(for: feedsError, duration: scope?.duration ?? "0.00ms")
            if let allow { response.headers[.allow] = allow }
            return response
        }
    }
}

/// Stream's error body as a reply, with `Retry-After` when trying again soon may help.
extension APIErrorBody {
    static func response(for error: FeedsError, duration: String) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        // A dependency that did not answer in time, or is down: worth trying again shortly.
        if error.kind == .unavailable || error.kind == .gatewayTimeout { headers[.retryAfter] = "1" }
        return Response(
            status: .init(code: error.kind.status),
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: json(for: error, duration: duration)))
        )
    }
}
