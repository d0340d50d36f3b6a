import HTTPTypes
import Hummingbird

/// Every `/cdn` answer, errors and redirects included, is never sniffed and runs nothing: a
/// browser that opens one gets `nosniff` and a sandboxing `Content-Security-Policy`. It sits
/// outside the error middleware, so it sees errors as the responses they become.
struct CDNSafetyHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        var response = try await next(request, context)
        guard request.uri.path.hasPrefix("/cdn/") else { return response }
        CDNSafetyHeaders.apply(to: &response.headers)
        return response
    }
}

/// `nosniff` and a sandboxing policy, for every `/cdn` answer (`CDNFastAnswer`'s too).
enum CDNSafetyHeaders {
    static func apply(to headers: inout HTTPFields) {
        headers[.xContentTypeOptions] = "nosniff"
        headers[.contentSecurityPolicy] = "default-src 'none'; sandbox"
    }
}
