import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// Notification feeds in PostgreSQL (migration 0019): a notification joins its group in the
/// transaction that writes it, and the group's counts change with it, so a page reads its groups
/// and their newest few notifications, never a whole group.
public struct PostgresNotificationStore: NotificationStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    /// How many of a group's notifications a page shows, newest first.
    static let listed = 10

    public func add(_ draft: NotificationDraft, format: AggregationFormat, logger: Logger) async throws -> AggregatedGroup? {
        let group = format.render(type: draft.type, targetID: draft.targetID, userID: draft.actorID, time: Date())
        let written: Bool = try await client.transaction(logger: logger) { connection in
            // The same source again (a like after an unlike, a follow after an unfollow) moves
            // to the group of now rather than counting twice.
            _ = try await Self.take(feed: draft.feed, source: draft.source, on: connection, logger: logger)
            try await connection.query(
                """
                INSERT INTO notification_groups (feed, grp, created_at, updated_at) VALUES (\(draft.feed), \(group), now(), now())
                ON CONFLICT (feed, grp) DO UPDATE SET updated_at = now()
                """, logger: logger)
            let rows = try await connection.query(
                """
                WITH known AS (
                    SELECT EXISTS (SELECT 1 FROM notifications WHERE feed = \(draft.feed) AND grp = \(group)
                        AND user_id = \(draft.actorID)) AS known
                ), added AS (
                    INSERT INTO notifications (id, feed, grp, source, type, user_id, activity_id, context, custom, created_at)
                    SELECT \(UUID().lowercasedString), \(draft.feed), \(group), \(draft.source), \(draft.type), u.id,
                        \(draft.activityID),
                        \(JSONText.encode(draft.context))::jsonb, \(JSONText.encode(draft.custom))::jsonb, now()
                    FROM users u WHERE u.id = \(draft.actorID)
                    -- The same cause at the same moment (a double tap): the first to commit keeps it.
                    ON CONFLICT (feed, source) DO NOTHING
                    RETURNING 1
                )
                UPDATE notification_groups SET activity_count = activity_count + 1,
                    user_count = user_count + CASE WHEN (SELECT known FROM known) THEN 0 ELSE 1 END
                WHERE feed = \(draft.feed) AND grp = \(group) AND EXISTS (SELECT 1 FROM added)
                RETURNING 1
                """, logger: logger)
            var written = false
            for try await _ in rows { written = true }
            if !written {
                // The actor is gone, or a concurrent request wrote it: leave no empty group behind.
                try await connection.query(
                    "DELETE FROM notification_groups WHERE feed = \(draft.feed) AND grp = \(group) AND activity_count = 0",
                    logger: logger)
            }
            return written
        }
        guard written else { return nil }
        // The activity may have been deleted (or expired) while this was written, after its
        // delete took its notifications back: then this one goes too. Either order ends clean.
        if let activityID = draft.activityID, try await !isLive(activityID, logger: logger) {
            _ = try await removeAll(activityID: activityID, logger: logger)
            return nil
        }
        return try await groups(feed: draft.feed, [group], logger: logger).first
    }

    public func remove(source: String, logger: Logger) async throws -> (feed: String, group: AggregatedGroup?)? {
        let taken = try await client.transaction(logger: logger) { connection in
            try await Self.take(feed: nil, source: source, on: connection, logger: logger)
        }
        guard let (feed, group) = taken else { return nil }
        return (feed, try await groups(feed: feed, [group], logger: logger).first)
    }

    private func isLive(_ activityID: String, logger: Logger) async throws -> Bool {
        let rows = try await client.query(
            "SELECT 1 FROM activities a WHERE a.id = \(activityID) AND \(unescaped: ActivityLive.predicate("a"))", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    public func removeAll(activityID: String, logger: Logger) async throws -> [String] {
        try await client.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                "SELECT feed, source FROM notifications WHERE activity_id = \(activityID) ORDER BY feed, source LIMIT 10000",
                logger: logger)
            var taken: [(String, String)] = []
            for try await row in rows.decode((String, String).self) { taken.append(row) }
            for (feed, source) in taken { _ = try await Self.take(feed: feed, source: source, on: connection, logger: logger) }
            return Array(Set(taken.map(\.0))).sorted()
        }
    }

    /// Deletes the notification from `source` and counts it out of its group (the group goes
    /// with its last); returns the group it was in. The statement's parts see the table as it
    /// was before it, hence the other sources, not the deleted row, decide the user's count.
    static func take(feed: String?, source: String, on connection: PostgresConnection, logger: Logger) async throws
        -> (feed: String, group: String)?
    {
        let rows = try await connection.query(
            """
            WITH gone AS (
                DELETE FROM notifications WHERE source = \(source) AND (\(feed == nil) OR feed = \(feed ?? ""))
                RETURNING feed, grp, user_id
            )
            UPDATE notification_groups g SET activity_count = g.activity_count - 1,
                user_count = g.user_count - CASE WHEN EXISTS (
                    SELECT 1 FROM notifications n WHERE n.feed = g.feed AND n.grp = g.grp AND n.user_id = gone.user_id
                        AND n.source <> \(source)
                ) THEN 0 ELSE 1 END
            FROM gone WHERE g.feed = gone.feed AND g.grp = gone.grp
            RETURNING g.feed, g.grp, g.activity_count
            """, logger: logger)
        var found: (String, String, Int)?
        for try await row in rows.decode((String, String, Int).self) { found = row }
        guard let (feed, group, count) = found else { return nil }
        if count <= 0 {
            try await connection.query("DELETE FROM notification_groups WHERE feed = \(feed) AND grp = \(group)", logger: logger)
        }
        return (feed, group)
    }
}
