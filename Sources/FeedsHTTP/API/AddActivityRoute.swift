import FeedsAPI
import FeedsCore
import HTTPTypes
import Hummingbird

/// AddActivity, routed here instead of through the generated handler so that `JSONWriter` writes
/// the new activity: a create is the request sent most. A multipart create (files sent with the
/// activity) goes on to the generated handler; everything else is answered here as the generated
/// route would (`HandWrittenRoute`), the work being the API's (`addActivity(_:idempotencyKey:)`).
struct AddActivityRoute<Store: ActivityStore> {
    let api: FeedsAPIImplementation<Store>
    /// JSON bodies were capped before they get here (`JSONBodyLimitMiddleware`).
    let bodyLimit: Int
    /// How long the work may take before the request is answered 503 (`withDeadline`).
    let deadline: Duration

    static var path: String { "/api/v2/feeds/activities" }

    /// The route whose generated handler `GeneratedTransport` keeps off the router.
    static var routes: [(method: HTTPRequest.Method, path: String)] { [(.post, path)] }

    /// `generated` holds the generated handler, for multipart bodies.
    func register<Context: RequestContext>(on router: Router<Context>, generated: Router<Context>) {
        let multipart = generated.buildResponder()
        router.post(.init(Self.path)) { request, context in
            // Only a concrete multipart type: the generated code reads a wildcard as JSON.
            if HandWrittenRoute.isMultipartFormData(request.headers) {
                return try await multipart.respond(to: request, context: context)
            }
            // A retry must read as its first try did, so that their content is the same: with an
            // Idempotency-Key, the generated decoder reads every body.
            let key = request.headers[.idempotencyKey]
            let common: ((JSONValue) throws -> Components.Schemas.AddActivityRequest?)? =
                key == nil ? { try Components.Schemas.AddActivityRequest(common: $0) } : nil
            let body = try await HandWrittenRoute.decode(
                Components.Schemas.AddActivityRequest.self, from: request, limit: bodyLimit, common: common)
            let reply = try await withDeadline(deadline, "AddActivity") { [api] in
                try await api.addActivity(body, idempotencyKey: key)
            }
            return HandWrittenRoute.created(reply)
        }
    }
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
}
