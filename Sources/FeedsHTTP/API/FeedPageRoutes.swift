import FeedsAPI
import FeedsCore
import Foundation
import HTTPTypes
import Hummingbird

/// The two operations that answer with pages of activities, GetOrCreateFeed and QueryActivities,
/// routed here instead of through the generated handlers so that `JSONWriter` writes their
/// replies. The rest is as on the generated routes: the body decodes as the generated request
/// type, the middlewares are the same, errors are rendered the same way. The work is the API's
/// (`feedPage`, `activityPage`). `FeedPageTests` holds the replies to the reference's response types.
struct FeedPageRoutes<Store: ActivityStore> {
    let api: FeedsAPIImplementation<Store>
    /// JSON bodies were capped before they get here (`JSONBodyLimitMiddleware`).
    let bodyLimit: Int

    static var getOrCreateFeed: String { "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}" }
    static var queryActivities: String { "/api/v2/feeds/activities/query" }

    /// The routes `RecordingTransport` leaves to us.
    static var routes: [(method: HTTPRequest.Method, path: String)] {
        [(.post, getOrCreateFeed), (.post, queryActivities)]
    }

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.post(.init(Self.getOrCreateFeed)) { request, context in
            if let translate = request.uri.queryParameters["translate_text"], Bool(String(translate)) == nil {
                throw FeedsError.input("translate_text must be true or false", field: "translate_text")
            }
            let body = try await decode(Components.Schemas.GetOrCreateFeedRequest.self, from: request)
            let scope = try api.request
            let result = try await api.feedPage(
                group: try Self.parameter("feed_group_id", context), id: try Self.parameter("feed_id", context), body,
                request: scope)
            var json = JSONWriter(capacity: 2048 + 1536 * result.page.activities.count)
            json.object { json in
                json.page(result.page, urls: api.uploads)
                json.emptyArray("aggregated_activities")
                json.field("created", result.created)
                json.key("feed")
                json.feed(result.feed)
                json.emptyArray("followers")
                json.emptyArray("following")
                json.emptyArray("members")
                json.emptyArray("pinned_activities")
                json.field("duration", scope.duration)
            }
            return Self.created(json)
        }
        router.post(.init(Self.queryActivities)) { request, _ in
            let body = try await decode(Components.Schemas.QueryActivitiesRequest.self, from: request)
            let scope = try api.request
            let page = try await api.activityPage(body, request: scope)
            var json = JSONWriter(capacity: 1024 + 1536 * page.activities.count)
            json.object { json in
                json.page(page, urls: api.uploads)
                json.field("duration", scope.duration)
            }
            return Self.created(json)
        }
    }

    /// The body as the generated type, after the same content-type check the generated code makes.
    private func decode<Body: Decodable>(_: Body.Type, from request: Request) async throws -> Body {
        if let type = request.headers[.contentType] {
            let media = type.split(separator: ";", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces).lowercased()
            // A wildcard takes the first type the operation accepts, as the generated code does.
            guard media == "application/json" || media?.hasSuffix("/*") == true else {
                throw FeedsError(
                    .unsupportedMediaType, "Unexpected content type, expected: application/json, received: \(type)")
            }
        }
        let buffer = try await request.body.collect(upTo: bodyLimit)
        return try RFC3339DateTranscoder.decoder.decode(Body.self, from: Data(buffer.readableBytesView))
    }

    /// A path parameter, percent-decoded as the generated code decodes it.
    private static func parameter<Context: RequestContext>(_ name: String, _ context: Context) throws -> String {
        let raw = try context.parameters.require(name)
        guard let decoded = raw.removingPercentEncoding else {
            throw FeedsError.input("\(name) is not a valid path segment", field: name)
        }
        return decoded
    }

    private static func created(_ json: JSONWriter) -> Response {
        Response(
            status: .created, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: json.buffer))
    }
}
