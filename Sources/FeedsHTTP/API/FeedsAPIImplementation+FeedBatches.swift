import FeedsAPI
import FeedsCore
import FeedsWire

/// The feed calls apps make in bulk: CreateFeedsBatch (a composer making a feed per hashtag),
/// OwnCapabilitiesBatch (Stream's Swift SDK, for feeds an event names) and GetFollowSuggestions
/// (a home page's "who to follow").
extension FeedsAPIImplementation {
    func createFeedsBatch(_ input: Operations.CreateFeedsBatch.Input) async throws -> Operations.CreateFeedsBatch.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        guard (1...FeedCreation.maxBatch).contains(body.feeds.count) else {
            throw FeedsError.input("feeds takes 1 to \(FeedCreation.maxBatch) feeds", field: "feeds")
        }
        let creations = try body.feeds.enumerated().map { index, feed in
            let field = "feeds[\(index)]."
            try DeclaredBounds.check(feed, field: field)
            if feed.members?.isEmpty == false {
                throw FeedsError.input("feed members are not supported by this server yet", field: field + "members")
            }
            guard let creator = try request.principal.actingUser(requested: feed.createdById) else {
                throw FeedsError.input("created_by_id is required for server-side requests", field: field + "created_by_id")
            }
            return FeedCreation(
                id: try FeedID(group: feed.feedGroupId, id: feed.feedId, field: field + "feed_id"), creatorID: creator,
                visibility: feed.visibility.flatMap { FeedVisibility(rawValue: $0.rawValue) },
                details: try FeedDetails(
                    name: feed.name, description: feed.description, custom: try feed.custom.map { try recode($0) }
                ).checked(field: field))
        }
        try await feedGroups.require(creations.map(\.id), field: "feeds", logger: request.logger)
        let feeds = try await store.createFeeds(creations, by: request.principal, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(duration: request.duration, feeds: try feeds.map { try Wire.feed($0, viewer: request.principal) }))))
    }

    /// OwnCapabilitiesBatch: what OwnBatch's `own_capabilities` says, keyed by feed.
    func ownCapabilitiesBatch(_ input: Operations.OwnCapabilitiesBatch.Input) async throws
        -> Operations.OwnCapabilitiesBatch.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        guard (1...100).contains(body.feeds.count) else {
            throw FeedsError.input("feeds takes 1 to 100 feed ids", field: "feeds")
        }
        let ids = try Set(body.feeds.map { try FeedID($0, field: "feeds") })
        let viewer = try request.viewer(named: body.userId)
        let feeds = try await store.feeds(Array(ids), readableBy: viewer.userID, logger: request.logger)
        let capabilities = feeds.map { ($0.id.description, Wire.ownCapabilities(viewer, on: $0)) }
        return .created(
            .init(
                body: .json(
                    .init(
                        capabilities: .init(additionalProperties: Dictionary(uniqueKeysWithValues: capabilities)),
                        duration: request.duration))))
    }

    /// GetFollowSuggestions: the group's most followed feeds the user does not own or follow yet.
    func getFollowSuggestions(_ input: Operations.GetFollowSuggestions.Input) async throws
        -> Operations.GetFollowSuggestions.Output
    {
        let request = try request
        // Any feed of the group stands for it in the checks.
        let anyFeed = try FeedID(group: input.path.feedGroupId, id: "x", field: "feed_group_id")
        try await feedGroups.require([anyFeed], field: "feed_group_id", logger: request.logger)
        let group = anyFeed.group
        let user = try request.actingUser(input.query.userId)
        let limit = Int(input.query.limit ?? 10)
        guard (0...100).contains(limit) else { throw FeedsError.input("limit is 0 to 100", field: "limit") }
        let offered = try await store.followSuggestions(
            group: group, for: user, limit: limit == 0 ? 10 : limit, logger: request.logger)
        let viewer = Principal.user(user)
        let suggestions = try offered.map { suggestion in
            let (feed, wire) = (suggestion.feed, try Wire.feed(suggestion.feed, viewer: viewer))
            let score = Double(suggestion.mutuals > 0 ? suggestion.mutuals : feed.followerCount)
            return Components.Schemas.FeedSuggestionResponse(
                activityCount: wire.activityCount,
                algorithmScores: .init(additionalProperties: [
                    "friends_of_friends": Double(suggestion.mutuals), "popularity": Double(feed.followerCount),
                ]),
                createdAt: wire.createdAt, createdBy: wire.createdBy,
                custom: .init(additionalProperties: wire.custom?.additionalProperties ?? [:]),
                description: wire.description, feed: wire.feed, followerCount: wire.followerCount,
                followingCount: wire.followingCount, groupId: wire.groupId, id: wire.id, memberCount: wire.memberCount,
                name: wire.name, ownCapabilities: wire.ownCapabilities, pinCount: wire.pinCount, reason: suggestion.reason,
                recommendationScore: score, updatedAt: wire.updatedAt, visibility: wire.visibility?.rawValue)
        }
        let algorithm = offered.contains { $0.mutuals > 0 } ? "friends_of_friends" : "popular"
        return .ok(.init(body: .json(.init(algorithmUsed: algorithm, duration: request.duration, suggestions: suggestions))))
    }
}
