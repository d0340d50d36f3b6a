import FeedsAPI
import FeedsCore
import FeedsWire
import HTTPTypes
import Hummingbird

/// The operations that answer with pages of activities or lists of feeds, GetOrCreateFeed,
/// QueryActivities and QueryFeeds, routed here instead of through the generated handlers so that
/// `JSONWriter` writes their replies. The rest is as on the generated routes (`HandWrittenRoute`): the middlewares are the
/// same, errors are rendered the same way. The work is the API's (`feedPage`, `activityPage`, `feedsPage`).
/// `FeedPageTests` holds the replies to the reference's response types.
struct FeedPageRoutes<Store: ActivityStore> {
    let api: FeedsAPIImplementation<Store>
    /// JSON bodies were capped before they get here (`JSONBodyLimitMiddleware`).
    let bodyLimit: Int
    /// How long the work may take before the request is answered 503 (`withDeadline`).
    let deadline: Duration

    static var getOrCreateFeed: String { "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}" }
    static var queryActivities: String { "/api/v2/feeds/activities/query" }
    static var queryFeeds: String { "/api/v2/feeds/feeds/query" }

    /// The routes whose generated handlers `GeneratedTransport` keeps off the router.
    static var routes: [(method: HTTPRequest.Method, path: String)] {
        [(.post, getOrCreateFeed), (.post, queryActivities), (.post, queryFeeds)]
    }

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.post(.init(Self.getOrCreateFeed)) { request, context in
            try HandWrittenRoute.checkTranslateText(request)
            let body = try await HandWrittenRoute.decode(
                Components.Schemas.GetOrCreateFeedRequest.self, from: request, limit: bodyLimit)
            let scope = try api.request
            let (group, id) = (
                try HandWrittenRoute.parameter("feed_group_id", context), try HandWrittenRoute.parameter("feed_id", context)
            )
            let connectionID = try HandWrittenRoute.connectionID(request)
            let result = try await withDeadline(deadline, "GetOrCreateFeed") { [api] in
                try await api.feedPage(group: group, id: id, body, watchOn: connectionID, request: scope)
            }
            let viewer = try scope.viewer(named: body.userId ?? body.user?.id)
            let members = try Wire.encoded(result.members.members)
            let pinned = try Wire.encoded(result.pinned, urls: api.uploads.urls)
            var json = JSONWriter(capacity: 2048 + 1536 * result.page.activities.count)
            json.object { json in
                json.page(result.page, urls: api.uploads.urls, next: result.groupsNext)
                json.key("aggregated_activities")
                var users: [String: [UInt8]] = [:]
                json.array(result.groups) {
                    $0.aggregatedActivity($1, urls: api.uploads.urls, users: &users)
                }
                json.field("created", result.created)
                json.key("feed")
                json.feed(result.feed, viewer: viewer)
                json.follows("followers", result.followers, pagination: "followers_pagination", viewer: viewer)
                json.follows("following", result.following, pagination: "following_pagination", viewer: viewer)
                json.key("member_pagination")
                json.object { json in json.field("next", result.members.next) }
                json.key("members")
                json.raw(members)
                if let status = result.notificationStatus {
                    json.key("notification_status")
                    json.notificationStatus(status)
                }
                json.key("pinned_activities")
                json.raw(pinned)
                json.field("duration", scope.duration)
            }
            return HandWrittenRoute.created(json.buffer)
        }
        router.post(.init(Self.queryActivities)) { request, _ in
            try HandWrittenRoute.checkTranslateText(request)
            let body = try await HandWrittenRoute.decode(
                Components.Schemas.QueryActivitiesRequest.self, from: request, limit: bodyLimit)
            let scope = try api.request
            let page = try await withDeadline(deadline, "QueryActivities") { [api] in
                try await api.activityPage(body, request: scope)
            }
            var json = JSONWriter(capacity: 1024 + 1536 * page.activities.count)
            json.object { json in
                json.page(page, urls: api.uploads.urls)
                json.field("duration", scope.duration)
            }
            return HandWrittenRoute.created(json.buffer)
        }
        router.post(.init(Self.queryFeeds)) { request, _ in
            let body = try await HandWrittenRoute.decode(
                Components.Schemas.QueryFeedsRequest.self, from: request, limit: bodyLimit)
            let scope = try api.request
            let connectionID = try HandWrittenRoute.connectionID(request)
            let page = try await withDeadline(deadline, "QueryFeeds") { [api] in
                try await api.feedsPage(body, watchOn: connectionID, request: scope)
            }
            var json = JSONWriter(capacity: 512 + 1024 * page.feeds.count)
            json.object { json in
                json.key("feeds")
                json.array(page.feeds) { $0.feed($1, viewer: scope.principal) }
                json.field("next", page.next?.token)
                json.field("prev", page.prev?.token)
                json.field("duration", scope.duration)
            }
            return HandWrittenRoute.created(json.buffer)
        }
    }
}
