import Foundation
import HTTPTypes
import Hummingbird

/// Gives every request an id (the client's `x-client-request-id`, or a new one), puts it on
/// every log line, echoes it in the response, and starts the request's scope.
struct RequestScopeMiddleware<Context: RequestContext>: RouterMiddleware {
    static var header: HTTPField.Name { HTTPField.Name("x-client-request-id")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let supplied = request.headers[Self.header].flatMap { $0.count <= 128 && !$0.isEmpty ? $0 : nil }
        let requestID = supplied ?? UUID().uuidString.lowercased()
        var context = context
        context.logger[metadataKey: "request_id"] = .string(requestID)
        let scope = RequestScope(requestID: requestID, logger: context.logger, start: .now, principal: nil)
        var response = try await RequestScope.$current.withValue(scope) {
            try await next(request, context)
        }
        response.headers[Self.header] = requestID
        return response
    }
}
