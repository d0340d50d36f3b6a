import FeedsAPI
import FeedsCore
import FeedsWire

/// PinActivity, UnpinActivity and QueryPinnedActivities; the workflow is the `Pins` service's.
extension FeedsAPIImplementation {
    func pinActivity(_ input: Operations.PinActivity.Input) async throws -> Operations.PinActivity.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let feed = try await pinnedFeed(input.path.feedGroupId, input.path.feedId, request: request)
        let user = try request.actingUser(body.userId ?? body.user?.id)
        let pin = try await pins.pin(
            try Self.activityID(input.path.activityId), to: feed, by: user, principal: request.principal, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        activity: try wire(pin.activity), createdAt: WireTime.nanoseconds(pin.createdAt),
                        duration: request.duration, feed: feed.description, userId: pin.user.id))))
    }

    func unpinActivity(_ input: Operations.UnpinActivity.Input) async throws -> Operations.UnpinActivity.Output {
        let request = try request
        let feed = try await pinnedFeed(input.path.feedGroupId, input.path.feedId, request: request)
        _ = try request.principal.actingUser(requested: input.query.userId)
        let pin = try await pins.unpin(
            try Self.activityID(input.path.activityId), from: feed, principal: request.principal, logger: request.logger)
        return .ok(
            .init(
                body: .json(
                    .init(activity: try wire(pin.activity), duration: request.duration, feed: feed.description, userId: pin.user.id))))
    }

    func queryPinnedActivities(_ input: Operations.QueryPinnedActivities.Input) async throws
        -> Operations.QueryPinnedActivities.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let feed = try await pinnedFeed(input.path.feedGroupId, input.path.feedId, request: request)
        if let filter = body.filter, !filter.additionalProperties.isEmpty {
            throw FeedsError.input("pinned activities are not filtered on this server", field: "filter")
        }
        let page = try KeysetPage(
            sort: (body.sort ?? []).map { ($0.field, $0.direction.map(Int.init)) }, limit: body.limit.map(Int.init), next: nil,
            prev: body.prev, kind: nil, what: "pins", field: "")
        guard !page.ascending || body.sort == nil else { throw FeedsError.input("pins are newest first", field: "sort") }
        guard try await !store.feeds([feed], readableBy: nil, logger: request.logger).isEmpty else {
            throw FeedsError.notFound("feed \(feed) does not exist")
        }
        if let user = request.principal.userID, try await store.feeds([feed], readableBy: user, logger: request.logger).isEmpty {
            throw FeedsError.notAllowed("\(user) may not read \(feed)")
        }
        let pinned = try await pins.page(
            of: feed, viewer: request.principal, ownFieldsOf: request.principal.userID, limit: page.limit, next: body.next,
            logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        duration: request.duration, next: pinned.next,
                        pinnedActivities: try pinned.pins.map { try Wire.pin($0, urls: uploads.urls) }))))
    }

    private func pinnedFeed(_ group: String, _ id: String, request: AuthenticatedRequest) async throws -> FeedID {
        let feed = try FeedID(group: group, id: id, field: "feed_id")
        try await feedGroups.require([feed], field: "feed_group_id", logger: request.logger)
        return feed
    }

    private static func activityID(_ id: String) throws -> String {
        guard (1...255).contains(id.utf8.count) else { throw FeedsError.input("activity_id is 1 to 255 characters", field: "activity_id") }
        return id
    }
}
