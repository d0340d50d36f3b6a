import FeedsAPI
import FeedsCore
import HTTPTypes
import Hummingbird

/// The two operations that answer with pages of activities, GetOrCreateFeed and QueryActivities,
/// routed here instead of through the generated handlers so that `JSONWriter` writes their
/// replies. The rest is as on the generated routes (`HandWrittenRoute`): the middlewares are the
/// same, errors are rendered the same way. The work is the API's (`feedPage`, `activityPage`).
/// `FeedPageTests` holds the replies to the reference's response types.
struct FeedPageRoutes<Store: ActivityStore> {
    let api: FeedsAPIImplementation<Store>
    /// JSON bodies were capped before they get here (`JSONBodyLimitMiddleware`).
    let bodyLimit: Int

    static var getOrCreateFeed: String { "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}" }
    static var queryActivities: String { "/api/v2/feeds/activities/query" }

    /// The routes whose generated handlers `RecordingTransport` keeps off the router.
    static var routes: [(method: HTTPRequest.Method, path: String)] {
        [(.post, getOrCreateFeed), (.post, queryActivities)]
    }

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.post(.init(Self.getOrCreateFeed)) { request, context in
            if let translate = request.uri.queryParameters["translate_text"], Bool(String(translate)) == nil {
                throw FeedsError.input("translate_text must be true or false", field: "translate_text")
            }
            let body = try await HandWrittenRoute.decode(
                Components.Schemas.GetOrCreateFeedRequest.self, from: request, limit: bodyLimit)
            let scope = try api.request
            let result = try await api.feedPage(
                group: try HandWrittenRoute.parameter("feed_group_id", context),
                id: try HandWrittenRoute.parameter("feed_id", context), body, request: scope)
            var json = JSONWriter(capacity: 2048 + 1536 * result.page.activities.count)
            json.object { json in
                json.page(result.page, urls: api.uploads.urls)
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
            return HandWrittenRoute.created(json.buffer)
        }
        router.post(.init(Self.queryActivities)) { request, _ in
            let body = try await HandWrittenRoute.decode(
                Components.Schemas.QueryActivitiesRequest.self, from: request, limit: bodyLimit)
            let scope = try api.request
            let page = try await api.activityPage(body, request: scope)
            var json = JSONWriter(capacity: 1024 + 1536 * page.activities.count)
            json.object { json in
                json.page(page, urls: api.uploads.urls)
                json.field("duration", scope.duration)
            }
            return HandWrittenRoute.created(json.buffer)
        }
    }
}
