import FeedsAPI
import FeedsCore
import FeedsWire
import Foundation
import Logging

extension FeedsAPIImplementation {
    /// Answered by `FeedPageRoutes`, registered in this handler's place (`GeneratedTransport`
    /// leaves the route to it), so that `JSONWriter` writes the page.
    func queryActivities(_ input: Operations.QueryActivities.Input) async throws -> Operations.QueryActivities.Output {
        throw FeedsError(.internal, "QueryActivities is answered by FeedPageRoutes")
    }

    /// QueryActivities' work; `FeedPageRoutes` writes the page.
    func activityPage(_ body: Components.Schemas.QueryActivitiesRequest, request: AuthenticatedRequest) async throws
        -> ActivityPage
    {
        try DeclaredBounds.check(body)
        let (limit, cursor) = try ActivityQuery.page(limit: body.limit.map(Int.init), next: body.next, prev: body.prev)
        var query = ActivityQuery(viewer: request.principal, limit: limit, cursor: cursor)
        try query.sort(by: ActivitySort((body.sort ?? []).map { ($0.field, $0.direction.map(Int.init)) }))
        // A server call naming a user gets that user's own reactions and bookmarks.
        query.ownFieldsOf = try request.principal.actingUser(requested: body.userId ?? body.user?.id)
        query.leavesOutBlocked = true
        if let filter = body.filter { try ActivityFilter.apply(try recode(filter), to: &query) }
        var page = try await store.queryActivities(query, logger: request.logger)
        page.activities = try await withCurrentFeeds(page.activities, in: nil, reader: query.ownFieldsOf, request: request)
        return page
    }

    /// Answered by `FeedPageRoutes`, as `queryActivities` is.
    func getOrCreateFeed(_ input: Operations.GetOrCreateFeed.Input) async throws -> Operations.GetOrCreateFeed.Output {
        throw FeedsError(.internal, "GetOrCreateFeed is answered by FeedPageRoutes")
    }

    /// GetOrCreateFeed's work; `FeedPageRoutes` writes the page.
    /// With `watch`, the socket `connectionID` of the reader receives the feed's events from now on.
    func feedPage(
        group: String, id: String, _ body: Components.Schemas.GetOrCreateFeedRequest, watchOn connectionID: String? = nil,
        request: AuthenticatedRequest
    ) async throws -> FeedRead {
        try DeclaredBounds.check(body)
        let feedID = try FeedID(group: group, id: id, field: "feed_id")
        try await feedGroups.require([feedID], field: "feed_group_id", logger: request.logger)
        let creator = try request.principal.actingUser(requested: body.userId ?? body.user?.id)
        // An aggregated feed (the notification feed, a story timeline) pages its groups (`next` is
        // theirs), not activities.
        let group = feedGroups.current.live(feedID.group)
        let notification = feedID.group == "notification"
        let storyFormat = notification ? nil : group?.config.aggregation.flatMap { try? AggregationFormat($0.format) }
        let aggregated = notification || storyFormat != nil
        let (limit, cursor) =
            aggregated
            ? try ActivityQuery.page(limit: body.limit.map(Int.init), next: nil, prev: nil)
            : try ActivityQuery.page(limit: body.limit.map(Int.init), next: body.next, prev: body.prev)
        let visibility = body.data?.visibility.flatMap { FeedVisibility(rawValue: $0.rawValue) }
        let details = try FeedDetails(
            name: body.data?.name, description: body.data?.description, custom: try body.data?.custom.map { try recode($0) }
        ).checked(field: "data.")
        // A new feed's first members come with it (checked before anything is written).
        let firstMembers = try Self.memberInputs(body.data?.members ?? [], field: "data.members", principal: request.principal)
        var (feed, created) = try await store.getOrCreateFeed(
            feedID, creatorID: creator, by: request.principal, visibility: visibility, details: details, logger: request.logger)
        // Watches left from a deleted feed of the same id end: this one may be read by others.
        if created { try await realtime.revokeAll(feedID.description, allBut: feed.createdBy.id) }
        if created, !firstMembers.isEmpty {
            let change = try await members.update(
                feedID, .upsert, firstMembers, principal: request.principal, logger: request.logger)
            feed.memberCount = change.added.filter { $0.status == .member }.count
        }
        if let user = request.principal.userID, try await !store.mayRead(feed, userID: user, logger: request.logger) {
            throw FeedsError.notAllowed("\(feedID) is \(feed.visibility.rawValue): \(user) may not read it")
        }
        // What the feed is to its reader (their follows of it, their membership), beside the page.
        let readFeed = feed
        async let own = withOwnData(
            [readFeed], reader: creator, followings: body.enrichmentOptions?.enrichOwnFollowings == true, request: request)
        // Without a socket (a client not connected yet) there is nothing to watch with: the read stands.
        if body.watch == true, let connectionID {
            try await realtime.watch(feedID.description, connectionID: connectionID, principal: request.principal)
        }
        // Accepted follows only, as Stream lists them; the feed was found readable above. The
        // feed's counts say when there are none, which spares the query.
        func follows(_ side: String, _ pager: Components.Schemas.PagerRequest?, _ field: String) throws -> FollowQuery? {
            let count = side == "target_feed" ? feed.followerCount : feed.followingCount
            guard count > 0 || pager?.next != nil else { return nil }
            return try FollowQuery(
                filter: [side: .string(feedID.description), "status": .string("accepted")], sort: [],
                limit: Int(pager?.limit ?? 10), next: pager?.next, prev: pager?.prev, field: field + ".")
        }
        let followersQuery = try follows("target_feed", body.followersPagination, "followers_pagination")
        let followingQuery = try follows("source_feed", body.followingPagination, "following_pagination")
        // The page and the lists are independent reads: run side by side, on connections of their own.
        var pageQuery = ActivityQuery(feeds: [feedID.description], viewer: request.principal, limit: limit, cursor: cursor)
        pageQuery.ownFieldsOf = creator  // the reader's, or the user a server call names
        pageQuery.leavesOutBlocked = true
        async let followers = list(followersQuery, request: request)
        async let following = list(followingQuery, request: request)
        // The members, when it has any (the count spares the query).
        let memberQuery = try MemberQuery(
            feed: feedID, filter: ["status": .string("member")], sort: [],
            limit: Int(body.memberPagination?.limit ?? 10), next: body.memberPagination?.next, prev: nil,
            field: "member_pagination.")
        let (hasMembers, membersQuery, hasPins) = (feed.memberCount > 0, memberQuery, feed.pinCount > 0)
        async let members =
            hasMembers ? memberStore.queryMembers(membersQuery, logger: request.logger) : MemberPage(members: [], next: nil)
        // Its newest pins, when it has any.
        async let pinned =
            hasPins
            ? pins.page(of: feedID, viewer: request.principal, ownFieldsOf: creator, limit: 10, next: nil, logger: request.logger)
            : PinPage(pins: [], next: nil)
        var read = FeedRead(
            feed: feed, created: created, page: ActivityPage(activities: [], next: nil, prev: nil),
            followers: FollowPage(follows: [], next: nil), following: FollowPage(follows: [], next: nil))
        if notification {
            let page = try await notifications.page(
                feed: feedID.description, limit: limit, next: body.next, logger: request.logger)
            (read.groups, read.groupsNext, read.notificationStatus) = (page.groups, page.next, page.status)
        } else if let storyFormat, let group {
            (read.groups, read.groupsNext) = try await stories.groups(
                of: feedID, group: group, format: storyFormat, viewer: request.principal, reader: creator, limit: limit,
                next: body.next, logger: request.logger)
        } else if let view = try await view(named: body.view, logger: request.logger) ?? group?.view {
            // A view (the one named, or the group's selectors and ranking) picks and orders the page.
            if cursor?.direction == .newer { throw FeedsError.input("a view's pages go forward only (next)", field: "prev") }
            let viewQuery = ViewPageQuery(
                feed: feedID, view: view, viewer: request.principal, ownFieldsOf: creator, limit: limit, cursor: cursor,
                now: Date())
            read.page = try await store.viewPage(viewQuery, logger: request.logger)
        } else {
            read.page = try await store.queryActivities(pageQuery, logger: request.logger)
            read.page.activities = try await stories.marked(
                read.page.activities, in: group, reader: creator, logger: request.logger)
        }
        (read.followers, read.following, read.members) = (try await followers, try await following, try await members)
        // The listed follows' feeds carry what each is to the reader, as QueryFollows' do (a follow
        // button reads `own_follows`): one read for both lists, none when they are empty.
        let listed = try await withOwnData(
            read.followers.follows + read.following.follows, reader: creator, request: request)
        let split = read.followers.follows.count
        (read.followers.follows, read.following.follows) = (Array(listed.prefix(split)), Array(listed.dropFirst(split)))
        read.pinned = try await pinned.pins
        read.feed.own = try await own.first?.own
        if !aggregated {
            read.page.activities = try await withCurrentFeeds(
                read.page.activities, in: read.feed, reader: creator, request: request)
        }
        return read
    }

    /// The feed view a read names, noting its use; nil when it names none, 400 when there is no such view.
    private func view(named id: String?, logger: Logger) async throws -> FeedView? {
        guard let id else { return nil }
        guard let view = try await feedViews.view(id, logger: logger) else {
            throw FeedsError.input("feed view \(id) does not exist", field: "view")
        }
        let views = feedViews
        Task { try? await views.touch(id, logger: logger) }
        return view
    }

    /// Each activity's `current_feed`. On a feed's page: the feed read (with the reader's own
    /// fields), where it was posted there; else (a timeline's copy) the first feed it was posted
    /// to, read once for the page with the reader's own fields there (`own_follows`: Stream's
    /// sample app draws each post's follow button from them; the writer writes each feed's bytes
    /// once and copies them). Off a feed's page (QueryActivities, GetActivity), as on Stream, only
    /// an activity posted to one feed has one. A feed the reader may not read is left out.
    /// `reader`: whose own fields (the caller, or the user a server call names).
    func withCurrentFeeds(_ activities: [Activity], in feed: Feed?, reader: String?, request: AuthenticatedRequest)
        async throws -> [Activity]
    {
        let fid = feed?.id.description
        let current = { (activity: Activity) -> String? in
            if let fid { return activity.feeds.contains(fid) ? fid : activity.feeds.first }
            return activity.feeds.count == 1 ? activity.feeds[0] : nil
        }
        var byID = [String: Feed]()
        if let feed, let fid { byID[fid] = feed }
        let elsewhere = Set(activities.compactMap(current)).subtracting(byID.keys)
        if !elsewhere.isEmpty {
            let found = try await store.feeds(
                try elsewhere.map { try FeedID($0) }, readableBy: request.principal.userID, logger: request.logger)
            for origin in try await withOwnData(found, reader: reader, request: request) {
                byID[origin.id.description] = origin
            }
        }
        return activities.map { activity in
            var activity = activity
            activity.currentFeed = current(activity).flatMap { byID[$0] }.map { CurrentFeed(feed: $0, viewer: request.principal) }
            return activity
        }
    }

    private func list(_ query: FollowQuery?, request: AuthenticatedRequest) async throws -> FollowPage {
        guard let query else { return FollowPage(follows: [], next: nil) }
        return try await store.queryFollows(query, viewer: .server, logger: request.logger)
    }
}

/// What GetOrCreateFeed read: the feed, its page, its follows, and for an aggregated feed its
/// groups (and a notification feed's status).
struct FeedRead: Sendable {
    var feed: Feed
    var created: Bool
    var page: ActivityPage
    var followers: FollowPage
    var following: FollowPage
    var groups: [AggregatedGroup] = []
    /// The cursor past `groups`.
    var groupsNext: String?
    var notificationStatus: NotificationStatus?
    var members = MemberPage(members: [], next: nil)
    var pinned: [ActivityPin] = []
}
