import FeedsAPI
import FeedsCore
import FeedsWire

/// The feed group calls: server-side only, as on Stream. The wire read into a `FeedGroupChange`,
/// the workflow the `FeedGroupService`'s.
extension FeedsAPIImplementation {
    func listFeedGroups(_ input: Operations.ListFeedGroups.Input) async throws -> Operations.ListFeedGroups.Output {
        let request = try serverRequest
        let groups = try await feedGroups.list(includeDeleted: input.query.includeSoftDeleted ?? false, logger: request.logger)
        let wire = try Dictionary(uniqueKeysWithValues: groups.map { ($0.id, try Wire.feedGroup($0)) })
        return .ok(.init(body: .json(.init(duration: request.duration, groups: .init(additionalProperties: wire)))))
    }

    func createFeedGroup(_ input: Operations.CreateFeedGroup.Input) async throws -> Operations.CreateFeedGroup.Output {
        let request = try serverRequest
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let (group, _) = try await feedGroups.create(body.id, try body.change, reuse: false, by: actor, logger: request.logger)
        return .created(.init(body: .json(.init(duration: request.duration, feedGroup: try Wire.feedGroup(group)))))
    }

    func getFeedGroup(_ input: Operations.GetFeedGroup.Input) async throws -> Operations.GetFeedGroup.Output {
        let request = try serverRequest
        let group = try await feedGroups.group(
            input.path.feedGroupId, includeDeleted: input.query.includeSoftDeleted ?? false, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, feedGroup: try Wire.feedGroup(group)))))
    }

    func getOrCreateFeedGroup(_ input: Operations.GetOrCreateFeedGroup.Input) async throws
        -> Operations.GetOrCreateFeedGroup.Output
    {
        let request = try serverRequest
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let (group, created) = try await feedGroups.create(
            input.path.feedGroupId, try body.change, reuse: true, by: actor, logger: request.logger)
        return .ok(
            .init(body: .json(.init(duration: request.duration, feedGroup: try Wire.feedGroup(group), wasCreated: created))))
    }

    func updateFeedGroup(_ input: Operations.UpdateFeedGroup.Input) async throws -> Operations.UpdateFeedGroup.Output {
        let request = try serverRequest
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let group = try await feedGroups.update(input.path.feedGroupId, try body.change, by: actor, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, feedGroup: try Wire.feedGroup(group)))))
    }

    func deleteFeedGroup(_ input: Operations.DeleteFeedGroup.Input) async throws -> Operations.DeleteFeedGroup.Output {
        let request = try serverRequest
        try await feedGroups.delete(
            input.path.feedGroupId, hard: input.query.hardDelete ?? false, by: actor, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    func restoreFeedGroup(_ input: Operations.RestoreFeedGroup.Input) async throws -> Operations.RestoreFeedGroup.Output {
        let request = try serverRequest
        let group = try await feedGroups.restore(input.path.feedGroupId, by: actor, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, feedGroup: try Wire.feedGroup(group)))))
    }

    /// Who the admin audit list names for a change made through the API.
    private var actor: String { "API, server token" }

    /// The request, refused unless the server made it: users do not configure the app.
    private var serverRequest: AuthenticatedRequest {
        get throws { try serverRequest("feed groups are configured server-side") }
    }
}
