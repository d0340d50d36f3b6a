import FeedsAPI
import FeedsCore

/// The feed visibility calls: the levels and what each role is granted on each (`FeedGrants`,
/// the app's, in Stream's capability names). Server-side only, as on Stream.
extension FeedsAPIImplementation {
    func listFeedVisibilities(_ input: Operations.ListFeedVisibilities.Input) async throws
        -> Operations.ListFeedVisibilities.Output
    {
        let request = try serverRequest("feed visibilities are configured server-side")
        let grants = uploads.settings.feedGrants
        let levels = Dictionary(uniqueKeysWithValues: FeedVisibility.allCases.map { ($0.rawValue, Self.wire($0, grants)) })
        return .ok(.init(body: .json(.init(duration: request.duration, feedVisibilities: .init(additionalProperties: levels)))))
    }

    func getFeedVisibility(_ input: Operations.GetFeedVisibility.Input) async throws -> Operations.GetFeedVisibility.Output {
        let request = try serverRequest("feed visibilities are configured server-side")
        let level = try Self.level(input.path.name)
        return .ok(
            .init(body: .json(.init(duration: request.duration, feedVisibility: Self.wire(level, uploads.settings.feedGrants)))))
    }

    /// Sets what members, followers, other users and member roles may do at one level (roles not
    /// named keep theirs). Every read and write checks the new grants from its commit on; this node's
    /// `own_capabilities` at once, the others' on notice.
    func updateFeedVisibility(_ input: Operations.UpdateFeedVisibility.Input) async throws
        -> Operations.UpdateFeedVisibility.Output
    {
        let request = try serverRequest("feed visibilities are configured server-side")
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let level = try Self.level(input.path.name)
        let asked = body.grants?.additionalProperties ?? [:]
        guard asked.count <= 8, asked.values.allSatisfy({ $0.count <= 64 }) else {
            throw FeedsError.input("grants name at most 8 roles of at most 64 capabilities each", field: "grants")
        }
        var change = AppSettingsChange()
        change.feedGrants = try FeedVisibilityGrants.change(asked, for: level)
        let settings = try await settingsStore.update(change, by: "API, server token", logger: request.logger)
        uploads.settings.offer(settings)
        return .ok(.init(body: .json(.init(duration: request.duration, feedVisibility: Self.wire(level, settings.feedGrants)))))
    }

    private static func level(_ name: String) throws -> FeedVisibility {
        guard let level = FeedVisibility(rawValue: name) else {
            throw FeedsError.notFound(
                "feed visibility \(name.prefix(64)) does not exist (public, visible, followers, members, private)")
        }
        return level
    }

    private static func wire(_ level: FeedVisibility, _ grants: FeedGrants) -> Components.Schemas.FeedVisibilityResponse {
        .init(
            grants: .init(additionalProperties: FeedVisibilityGrants.grants(level, in: grants)), name: level.rawValue,
            permissions: [])
    }
}
