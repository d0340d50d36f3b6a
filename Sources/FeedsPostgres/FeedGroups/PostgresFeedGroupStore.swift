import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `FeedGroupStore` on PostgreSQL: `feed_groups` rows, each change made under the app settings'
/// row lock with the version bump, the audit line and the NOTIFY in one transaction, so every
/// node reloads the groups once the change is committed and never before.
public struct PostgresFeedGroupStore: FeedGroupStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func feedGroups(logger: Logger) async throws -> [FeedGroup] {
        try await client.withConnection { try await Self.read(on: $0, logger: logger) }
    }

    public func create(
        _ id: String, _ change: FeedGroupChange, reuse: Bool, by actor: String, logger: Logger
    ) async throws -> (group: FeedGroup, created: Bool, settings: AppSettings) {
        try FeedGroupChange.checkID(id)
        return try await changing(by: actor, logger: logger) { current, connection in
            if let existing = current.feedGroups.byID[id] {
                if existing.deletedAt != nil {
                    throw FeedsError.conflict("feed group \(id) is deleted; restore it or delete it for good first", field: "id")
                }
                guard reuse else { throw FeedsError.conflict("feed group \(id) exists", field: "id") }
                return (existing, false, [])
            }
            let now = Date()
            let group = try change.applied(to: FeedGroup(id: id, defaultVisibility: .visible, createdAt: now, updatedAt: now))
            try await connection.query(
                """
                INSERT INTO feed_groups (id, default_visibility, config, custom, created_at, updated_at)
                VALUES (\(id), \(group.defaultVisibility.rawValue), \(try JSONText.encode(group.config))::jsonb,
                    \(JSONText.encode(group.custom))::jsonb, \(now), \(now))
                """,
                logger: logger
            )
            return (group, true, ["feed_groups.\(id): created"])
        }
    }

    public func update(_ id: String, _ change: FeedGroupChange, by actor: String, logger: Logger) async throws
        -> (group: FeedGroup, settings: AppSettings)
    {
        let (group, _, settings) = try await changing(by: actor, logger: logger) { current, connection in
            guard let existing = current.feedGroups.live(id) else { throw FeedsError.notFound("feed group \(id) does not exist") }
            var group = try change.applied(to: existing)
            guard group != existing else { return (existing, false, []) }
            group.updatedAt = Date()
            try await connection.query(
                """
                UPDATE feed_groups SET default_visibility = \(group.defaultVisibility.rawValue),
                    config = \(try JSONText.encode(group.config))::jsonb, custom = \(JSONText.encode(group.custom))::jsonb,
                    updated_at = \(group.updatedAt)
                WHERE id = \(id)
                """,
                logger: logger
            )
            return (group, true, ["feed_groups.\(id): updated"])
        }
        return (group, settings)
    }

    public func delete(_ id: String, hard: Bool, by actor: String, logger: Logger) async throws -> AppSettings {
        try await changing(by: actor, logger: logger) { current, connection in
            guard let existing = current.feedGroups.byID[id], hard || existing.deletedAt == nil else {
                throw FeedsError.notFound("feed group \(id) does not exist")
            }
            guard !existing.isBuiltIn else {
                throw FeedsError.input("\(id) is a built-in feed group: it may be changed, not deleted", field: "id")
            }
            if hard {
                try await connection.query("DELETE FROM feed_groups WHERE id = \(id)", logger: logger)
            } else {
                try await connection.query("UPDATE feed_groups SET deleted_at = now() WHERE id = \(id)", logger: logger)
            }
            return (existing, true, ["feed_groups.\(id): \(hard ? "deleted for good" : "deleted")"])
        }.settings
    }

    public func restore(_ id: String, by actor: String, logger: Logger) async throws -> (group: FeedGroup, settings: AppSettings) {
        let (group, _, settings) = try await changing(by: actor, logger: logger) { current, connection in
            guard var group = current.feedGroups.byID[id] else { throw FeedsError.notFound("feed group \(id) does not exist") }
            guard group.deletedAt != nil else { return (group, false, []) }
            group.deletedAt = nil
            group.updatedAt = Date()
            try await connection.query(
                "UPDATE feed_groups SET deleted_at = NULL, updated_at = \(group.updatedAt) WHERE id = \(id)", logger: logger)
            return (group, true, ["feed_groups.\(id): restored"])
        }
        return (group, settings)
    }

    /// Runs `change` under the settings' row lock; when it wrote (its audit lines are not empty),
    /// bumps the version, records and announces it, and returns the settings it made.
    private func changing(
        by actor: String, logger: Logger,
        _ change: @escaping @Sendable (AppSettings, PostgresConnection) async throws -> (FeedGroup, Bool, [String])
    ) async throws -> (group: FeedGroup, created: Bool, settings: AppSettings) {
        try await client.transaction(logger: logger) { connection in
            let current = try await PostgresAppSettingsStore.read(on: connection, forUpdate: true, logger: logger)
            let (group, created, audit) = try await change(current, connection)
            guard !audit.isEmpty else { return (group, created, current) }
            var next = current
            next.version += 1
            next.feedGroups = FeedGroups(try await Self.read(on: connection, logger: logger))
            try await connection.query(
                "UPDATE app_settings SET version = \(next.version), updated_at = now() WHERE app_id = 1", logger: logger)
            try await PostgresAppSettingsStore.announce(next.version, by: actor, changes: audit, on: connection, logger: logger)
            return (next.feedGroups.byID[group.id] ?? group, created, next)
        }
    }

    /// Every group, soft-deleted ones too.
    static func read(on connection: PostgresConnection, logger: Logger) async throws -> [FeedGroup] {
        let rows = try await connection.query(
            """
            SELECT id, default_visibility, config::text, custom::text, created_at, updated_at, deleted_at
            FROM feed_groups ORDER BY id
            """,
            logger: logger
        )
        var groups: [FeedGroup] = []
        for try await (id, visibility, config, custom, created, updated, deleted) in rows.decode(
            (String, String, String, String, Date, Date, Date?).self)
        {
            groups.append(
                FeedGroup(
                    id: id, defaultVisibility: FeedVisibility(rawValue: visibility) ?? .visible,
                    config: try JSONDecoder().decode(FeedGroupConfig.self, from: Data(config.utf8)),
                    custom: try JSONText.object(custom), createdAt: created, updatedAt: updated, deletedAt: deleted))
        }
        return groups
    }
}
