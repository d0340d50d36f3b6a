import Logging

/// Where feed groups live. Every write bumps the app settings' version and announces it, and
/// returns the settings it made, so that this node takes them at once and the others on notice.
public protocol FeedGroupStore: Sendable {
    /// Every group, soft-deleted ones too.
    func feedGroups(logger: Logger) async throws -> [FeedGroup]

    /// Creates `id` with `change` over Stream's defaults; 409 when it exists (`reuse`: returns it
    /// unchanged instead, GetOrCreateFeedGroup). A soft-deleted group is neither: it is restored
    /// or hard-deleted first.
    func create(
        _ id: String, _ change: FeedGroupChange, reuse: Bool, by actor: String, logger: Logger
    ) async throws -> (group: FeedGroup, created: Bool, settings: AppSettings)

    /// Applies `change` to a live group; 404 when there is none.
    func update(_ id: String, _ change: FeedGroupChange, by actor: String, logger: Logger) async throws
        -> (group: FeedGroup, settings: AppSettings)

    /// Soft-deletes (or with `hard`, removes) a group other than the built-ins.
    func delete(_ id: String, hard: Bool, by actor: String, logger: Logger) async throws -> AppSettings

    /// Brings a soft-deleted group back.
    func restore(_ id: String, by actor: String, logger: Logger) async throws -> (group: FeedGroup, settings: AppSettings)
}
