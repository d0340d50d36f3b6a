import FeedsAPI
import FeedsCore
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

/// Renders a `FeedsError` as Stream's `APIError` JSON.
enum APIErrorBody {
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

    /// The JSON bytes of the body.
    static func json(for error: FeedsError, duration: String) -> [UInt8] {
        let body = Components.Schemas.APIError(
            statusCode: Int32(error.kind.status),
            code: Int32(error.kind.code),
            details: [],
            duration: duration,
            exceptionFields: error.field.map { .init(additionalProperties: [$0: error.message]) },
            message: error.message,
            moreInfo: "",
            unrecoverable: error.kind.status == 500 ? false : nil
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array((try? encoder.encode(body)) ?? Data("{}".utf8))
    }
}
