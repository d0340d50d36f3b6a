import FeedsAPI
import FeedsCore

/// The feed visibility calls: the levels and what each role is granted on each
/// (`FeedVisibilityGrants`, the server's own rule). Server-side only, as on Stream.
extension FeedsAPIImplementation {
    func listFeedVisibilities(_ input: Operations.ListFeedVisibilities.Input) async throws
        -> Operations.ListFeedVisibilities.Output
    {
        let request = try serverRequest("feed visibilities are configured server-side")
        let levels = Dictionary(uniqueKeysWithValues: FeedVisibility.allCases.map { ($0.rawValue, Self.wire($0)) })
        return .ok(.init(body: .json(.init(duration: request.duration, feedVisibilities: .init(additionalProperties: levels)))))
    }

    func getFeedVisibility(_ input: Operations.GetFeedVisibility.Input) async throws -> Operations.GetFeedVisibility.Output {
        let request = try serverRequest("feed visibilities are configured server-side")
        let level = try Self.level(input.path.name)
        return .ok(.init(body: .json(.init(duration: request.duration, feedVisibility: Self.wire(level)))))
    }

    func updateFeedVisibility(_ input: Operations.UpdateFeedVisibility.Input) async throws
        -> Operations.UpdateFeedVisibility.Output
    {
        let request = try serverRequest("feed visibilities are configured server-side")
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let level = try Self.level(input.path.name)
        try FeedVisibilityGrants.check(body.grants?.additionalProperties ?? [:], for: level)
        return .ok(.init(body: .json(.init(duration: request.duration, feedVisibility: Self.wire(level)))))
    }

    private static func level(_ name: String) throws -> FeedVisibility {
        guard let level = FeedVisibility(rawValue: name) else {
            throw FeedsError.notFound(
                "feed visibility \(name.prefix(64)) does not exist (public, visible, followers, members, private)")
        }
        return level
    }

    private static func wire(_ level: FeedVisibility) -> Components.Schemas.FeedVisibilityResponse {
        .init(grants: .init(additionalProperties: FeedVisibilityGrants.grants(level)), name: level.rawValue, permissions: [])
    }
}
