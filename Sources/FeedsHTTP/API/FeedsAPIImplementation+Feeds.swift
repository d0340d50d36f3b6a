import FeedsAPI
import FeedsCore
import FeedsServices
import FeedsWire

extension FeedsAPIImplementation {
    /// Answered by `FeedPageRoutes`, as `queryActivities` is.
    func queryFeeds(_ input: Operations.QueryFeeds.Input) async throws -> Operations.QueryFeeds.Output {
        throw FeedsError(.internal, "QueryFeeds is answered by FeedPageRoutes")
    }

    /// QueryFeeds' work; `FeedPageRoutes` writes the feeds: those the caller may read (a server
    /// call reads all). With `watch`, the socket `connectionID` receives their events from now on.
    func feedsPage(
        _ body: Components.Schemas.QueryFeedsRequest, watchOn connectionID: String? = nil, request: AuthenticatedRequest
    )
        async throws -> FeedPage
    {
        var query = try FeedQuery(
            filter: try body.filter.map { try recode($0) },
            sort: (body.sort ?? []).map { ($0.field, $0.direction.map(Int.init)) },
            limit: body.limit.map(Int.init), next: body.next, prev: body.prev)
        query.readableBy = request.principal.userID
        var page = try await store.queryFeeds(query, logger: request.logger)
        page.feeds = try await withOwnData(page.feeds, reader: request.principal.userID, request: request)
        if body.watch == true, let connectionID {
            for feed in page.feeds {
                try await realtime.watch(feed.id.description, connectionID: connectionID, principal: request.principal)
            }
        }
        return page
    }

    /// `feeds` with what each is to `reader` (`own_follows`, `own_membership`, and with
    /// `followings` `own_followings`); as they are when no user reads them.
    func withOwnData(_ feeds: [Feed], reader: String?, followings: Bool = false, request: AuthenticatedRequest) async throws
        -> [Feed]
    {
        guard let reader, !feeds.isEmpty else { return feeds }
        let own = try await store.ownData(of: feeds, for: reader, followings: followings, logger: request.logger)
        return feeds.map { feed in
            var feed = feed
            feed.own = own[feed.id]
            return feed
        }
    }

    /// `follows` with their feeds' own fields for `reader`, one read for all of their feeds.
    func withOwnData(_ follows: [Follow], reader: String?, request: AuthenticatedRequest) async throws -> [Follow] {
        guard reader != nil, !follows.isEmpty else { return follows }
        var feeds: [FeedID: Feed] = [:]
        for follow in follows { (feeds[follow.source.id], feeds[follow.target.id]) = (follow.source, follow.target) }
        for feed in try await withOwnData(Array(feeds.values), reader: reader, request: request) { feeds[feed.id] = feed }
        return follows.map { follow in
            var follow = follow
            (follow.source, follow.target) = (feeds[follow.source.id] ?? follow.source, feeds[follow.target.id] ?? follow.target)
            return follow
        }
    }

    /// StopWatchingFeed: the socket `connection_id` gets no more of the feed's events. Without
    /// one there is no socket, so nothing to stop.
    func stopWatchingFeed(_ input: Operations.StopWatchingFeed.Input) async throws -> Operations.StopWatchingFeed.Output {
        let request = try request
        let id = try FeedID(group: input.path.feedGroupId, id: input.path.feedId, field: "feed_id")
        if let connectionID = input.query.connectionId {
            try await realtime.watch(id.description, connectionID: connectionID, principal: request.principal, on: false)
        }
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    /// UpdateFeed: the name, description and custom data of a feed, by its owner or a server call;
    /// the feed's watchers get `feeds.feed.updated`.
    func updateFeed(_ input: Operations.UpdateFeed.Input) async throws -> Operations.UpdateFeed.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let details = try FeedDetails(
            name: body.name, description: body.description, custom: try body.custom.map { try recode($0) }
        )
        .checked()
        let id = try FeedID(group: input.path.feedGroupId, id: input.path.feedId, field: "feed_id")
        let feed = try await feedChanges.update(id, details, principal: request.principal, logger: request.logger)
        return .created(
            .init(body: .json(.init(duration: request.duration, feed: try Wire.feed(feed, viewer: request.principal)))))
    }

    /// DeleteFeed (`FeedDeletion`), by the feed's owner or a server call; done within the call,
    /// and its task recorded for GetTask.
    func deleteFeed(_ input: Operations.DeleteFeed.Input) async throws -> Operations.DeleteFeed.Output {
        let request = try request
        let id = try FeedID(group: input.path.feedGroupId, id: input.path.feedId, field: "feed_id")
        let deletion = try FeedDeletion(
            feeds: [id], hard: input.query.hardDelete ?? false, purgeOwnerActivities: input.query.purgeUserActivities ?? false)
        let task = try await feedChanges.delete(deletion, principal: request.principal, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, taskId: task.id))))
    }

    /// DeleteFeedsBatch: DeleteFeed for up to 1,000 feeds, all or none. Server-side only, as on Stream.
    func deleteFeedsBatch(_ input: Operations.DeleteFeedsBatch.Input) async throws -> Operations.DeleteFeedsBatch.Output {
        let request = try serverRequest("DeleteFeedsBatch is server-side only")
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let ids = try body.feeds.enumerated().map { index, fid in try FeedID(fid, field: "feeds[\(index)]") }
        let deletion = try FeedDeletion(
            feeds: ids, hard: body.hardDelete ?? false, purgeOwnerActivities: body.purgeUserActivities ?? false)
        let task = try await feedChanges.delete(deletion, principal: request.principal, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, taskId: task.id))))
    }

    /// ChangeFeedVisibility, by the feed's owner or a server call; the reply is the feed as it now is.
    func changeFeedVisibility(_ input: Operations.ChangeFeedVisibility.Input) async throws
        -> Operations.ChangeFeedVisibility.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let id = try FeedID(group: input.path.feedGroupId, id: input.path.feedId, field: "feed_id")
        guard let visibility = FeedVisibility(rawValue: body.visibility.rawValue) else {
            throw FeedsError.input("visibility is public, visible, followers, members or private", field: "visibility")
        }
        let change = VisibilityChange(visibility: visibility, approvePending: body.pendingFollowsAction != .reject)
        let feed = try await feedChanges.changeVisibility(id, change, principal: request.principal, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, feed: try Wire.feed(feed, viewer: request.principal)))))
    }

    /// GetTask: what a call that answered with a task id did. Server-side only.
    func getTask(_ input: Operations.GetTask.Input) async throws -> Operations.GetTask.Output {
        let request = try serverRequest("GetTask is server-side only")
        guard let task = try await store.task(id: input.path.id, logger: request.logger) else {
            throw FeedsError.notFound("task \(input.path.id) does not exist (tasks are kept for 7 days)")
        }
        return .ok(.init(body: .json(try Wire.task(task, duration: request.duration))))
    }

    /// OwnBatch: the caller's own fields for up to 100 feeds (`FeedOwnData`; capabilities from
    /// `FeedCapabilities`). Feeds that do not exist, or that the viewer may not read, are left out.
    func ownBatch(_ input: Operations.OwnBatch.Input) async throws -> Operations.OwnBatch.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        guard (1...100).contains(body.feeds.count) else {
            throw FeedsError.input("feeds takes 1 to 100 feed ids", field: "feeds")
        }
        let ids = try Set(body.feeds.map { try FeedID($0, field: "feeds") })
        let known = ["own_capabilities", "own_follows", "own_followings", "own_membership"]
        let fields = Set(body.fields ?? known)
        for field in fields where !known.contains(field) {
            throw FeedsError.input("fields are \(known.joined(separator: ", "))", field: "fields")
        }
        let viewer = try request.viewer(named: body.userId ?? body.user?.id)
        // Feeds the viewer may not read are left out as missing ones are: the reply says nothing of them.
        let feeds = try await store.feeds(Array(ids), readableBy: viewer.userID, logger: request.logger)
        let owned = try await withOwnData(
            feeds, reader: viewer.userID, followings: fields.contains("own_followings"), request: request)
        let data = try owned.map { feed in
            let own = feed.own ?? FeedOwnData(followings: [])
            return (
                feed.id.description,
                Components.Schemas.FeedOwnData(
                    ownCapabilities: fields.contains("own_capabilities") ? Wire.ownCapabilities(viewer, on: feed) : nil,
                    ownFollowings: fields.contains("own_followings")
                        ? try (own.followings ?? []).map { try Wire.follow($0, viewer: viewer) } : nil,
                    ownFollows: fields.contains("own_follows")
                        ? try own.follows.map { try Wire.follow($0, viewer: viewer) } : nil,
                    ownMembership: fields.contains("own_membership") ? try own.membership.map(Wire.feedMember) : nil)
            )
        }
        return .created(
            .init(
                body: .json(
                    .init(
                        data: .init(additionalProperties: Dictionary(uniqueKeysWithValues: data)),
                        duration: request.duration))))
    }
}
