import FeedsCore
import Foundation
import Hummingbird

/// Refuses, before anything runs, an API request whose `Accept` takes no JSON. The generated
/// handlers check `Accept` only when they encode the reply, after the work is done: a create sent
/// with `Accept: text/html` was stored and then answered with a 500.
struct AcceptMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        if request.uri.path.hasPrefix("/api/"), let accept = request.headers[.accept], !AcceptHeader.takesJSON(accept) {
            throw FeedsError(
                .notAcceptable, "the API answers with application/json, which Accept: \(accept) does not take", field: "Accept")
        }
        return try await next(request, context)
    }
}

enum AcceptHeader {
    /// Whether a media range of `accept` covers application/json with a quality above 0.
    static func takesJSON(_ accept: String) -> Bool {
        accept.split(separator: ",").contains { range in
            let parts = range.split(separator: ";").map { $0.trimmingHeaderSpace().lowercased() }
            guard let type = parts.first, ["application/json", "application/*", "*/*"].contains(type) else { return false }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
    }
}
