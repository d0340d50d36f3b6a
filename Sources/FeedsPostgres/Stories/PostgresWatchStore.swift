import FeedsCore
import Logging
import PostgresNIO

/// `WatchStore` on PostgreSQL: one `watched_activities` row per user and story.
public struct PostgresWatchStore: WatchStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func markWatched(_ ids: [String], by user: String, logger: Logger) async throws {
        guard !ids.isEmpty else { return }
        try await client.query(
            """
            WITH u AS (INSERT INTO users (id) VALUES (\(user)) ON CONFLICT (id) DO NOTHING)
            INSERT INTO watched_activities (user_id, activity_id)
            SELECT \(user), id FROM activities WHERE id = ANY(\(ids)) ORDER BY id
            ON CONFLICT DO NOTHING
            """,
            logger: logger
        )
    }

    public func watched(_ ids: [String], by user: String, logger: Logger) async throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        let rows = try await client.query(
            "SELECT activity_id FROM watched_activities WHERE user_id = \(user) AND activity_id = ANY(\(ids))",
            logger: logger)
        var watched = Set<String>()
        for try await id in rows.decode(String.self) { watched.insert(id) }
        return watched
    }
}
