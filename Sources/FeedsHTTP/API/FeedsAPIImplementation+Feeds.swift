import FeedsAPI
import FeedsCore

extension FeedsAPIImplementation {
    /// Answered by `FeedPageRoutes`, as `queryActivities` is.
    func queryFeeds(_ input: Operations.QueryFeeds.Input) async throws -> Operations.QueryFeeds.Output {
        throw FeedsError(.internal, "QueryFeeds is answered by FeedPageRoutes")
    }

    /// QueryFeeds' work; `FeedPageRoutes` writes the feeds. Every feed is readable by every
    /// signed-in caller, as GetOrCreateFeed reads them.
    func feedsPage(_ body: Components.Schemas.QueryFeedsRequest, request: AuthenticatedRequest) async throws -> FeedPage {
        let query = try FeedQuery(
            filter: try body.filter.map { try recode($0) },
            sort: (body.sort ?? []).map { ($0.field, $0.direction.map(Int.init)) },
            limit: body.limit.map(Int.init), next: body.next, prev: body.prev)
        return try await store.queryFeeds(query, logger: request.logger)
    }

    /// OwnBatch: the caller's own fields for up to 100 feeds. Follows and memberships do not exist
    /// yet, so those lists are empty; capabilities come from `FeedCapabilities`. Feeds that do not
    /// exist are left out, as they have no owner to decide by.
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
        let feeds = try await store.feeds(Array(ids), logger: request.logger)
        let data = feeds.map { feed in
            let capabilities = FeedCapabilities.of(viewer, ownerID: feed.createdBy.id)
            return (
                feed.id.description,
                Components.Schemas.FeedOwnData(
                    ownCapabilities: fields.contains("own_capabilities")
                        ? capabilities.compactMap(Components.Schemas.FeedOwnCapability.init(rawValue:)) : nil,
                    ownFollowings: fields.contains("own_followings") ? [] : nil,
                    ownFollows: fields.contains("own_follows") ? [] : nil)
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
