import FeedsCore
import Logging

/// Feed groups' workflow: each change is written, then taken by this node's settings at once (the
/// other nodes take it when they hear the store's notice), so the next request here already
/// finds a group just created.
package struct FeedGroupService: Sendable {
    let store: any FeedGroupStore
    let settings: AppSettingsCache

    package init(store: any FeedGroupStore, settings: AppSettingsCache) {
        (self.store, self.settings) = (store, settings)
    }

    package var current: FeedGroups { settings.current.feedGroups }

    /// Every group, from the database (not this node's copy), so a list is never stale.
    package func list(includeDeleted: Bool, logger: Logger) async throws -> [FeedGroup] {
        try await store.feedGroups(logger: logger).filter { includeDeleted || $0.deletedAt == nil }
    }

    package func group(_ id: String, includeDeleted: Bool, logger: Logger) async throws -> FeedGroup {
        let group = try await store.feedGroups(logger: logger).first { $0.id == id }
        guard let group, includeDeleted || group.deletedAt == nil else {
            throw FeedsError.notFound("feed group \(id) does not exist")
        }
        return group
    }

    package func create(_ id: String, _ change: FeedGroupChange, reuse: Bool, by actor: String, logger: Logger) async throws
        -> (group: FeedGroup, created: Bool)
    {
        let (group, created, next) = try await store.create(id, change, reuse: reuse, by: actor, logger: logger)
        settings.offer(next)
        return (group, created)
    }

    package func update(_ id: String, _ change: FeedGroupChange, by actor: String, logger: Logger) async throws -> FeedGroup {
        let (group, next) = try await store.update(id, change, by: actor, logger: logger)
        settings.offer(next)
        return group
    }

    package func delete(_ id: String, hard: Bool, by actor: String, logger: Logger) async throws {
        settings.offer(try await store.delete(id, hard: hard, by: actor, logger: logger))
    }

    package func restore(_ id: String, by actor: String, logger: Logger) async throws -> FeedGroup {
        let (group, next) = try await store.restore(id, by: actor, logger: logger)
        settings.offer(next)
        return group
    }

    /// Refuses feeds whose group does not exist. A group this node has not heard of yet may have
    /// just been made on another: the database is asked once before the refusal.
    package func require(_ feeds: [FeedID], field: String = "feeds", logger: Logger) async throws {
        if (try? current.requireAll(feeds, field: field)) != nil { return }
        try FeedGroups(try await store.feedGroups(logger: logger)).requireAll(feeds, field: field)
    }
}
