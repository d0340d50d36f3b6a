import FeedsCore
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// Gives every request an id (the client's `x-client-request-id`, or a new one), puts it on
/// every log line, echoes it in the response, and starts the request's scope (with this node's
/// settings, for the feed grants it reads when it needs them).
struct RequestScopeMiddleware<Context: RequestContext>: RouterMiddleware {
    let settings: AppSettingsCache

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let requestID = RequestID.of(request.headers)
        var context = context
        context.logger[metadataKey: "request_id"] = .string(requestID)
        var scope = RequestScope(
            requestID: requestID, logger: context.logger, start: .now, principal: nil,
            peer: request.headers[RequestHeadNormalizer.peerAddress])
        scope.settings = settings
        var response = try await RequestScope.$current.withValue(scope) {
            try await next(request, context)
        }
        response.headers[RequestID.header] = requestID
        return response
    }
}

/// A request's id: the client's `x-client-request-id` when it is a sensible length, else a new one.
enum RequestID {
    static let header = HTTPField.Name("x-client-request-id")!

    static func of(_ headers: HTTPFields) -> String {
        headers[header].flatMap { $0.count <= 128 && !$0.isEmpty ? $0 : nil } ?? make()
    }

    /// UUID-shaped and unique without a random draw each: this process's 8 random bytes, then a
    /// count. (`UUID()` asks the kernel for randomness every time.)
    static func make() -> String {
        let count = counter.add(1, ordering: .relaxed).newValue
        var uuid = processPrefix
        withUnsafeMutableBytes(of: &uuid) { bytes in
            withUnsafeBytes(of: count.bigEndian) {
                bytes.baseAddress!.advanced(by: 8).copyMemory(from: $0.baseAddress!, byteCount: 8)
            }
        }
        return UUID(uuid: uuid).lowercasedString
    }

    private static let processPrefix = UUID().uuid
    private static let counter = Atomic<UInt64>(0)
}
