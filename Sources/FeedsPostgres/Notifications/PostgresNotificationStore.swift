import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// Notification feeds in PostgreSQL (migration 0019): a notification joins its group in the
/// transaction that writes it, and the group's counts change with it, so a page reads its groups
/// and their newest few notifications, never a whole group.
public struct PostgresNotificationStore: NotificationStore {
    let client: PostgresClient
    /// The primary's generic-plan pool (`PostgresClient.Configuration.generic`), for the
    /// statements a notifying write runs (`NotificationInsert`, `NotificationChangesRead`): planned
    /// afresh, they cost PostgreSQL three times their running.
    let prepared: PostgresClient

    public init(client: PostgresClient, prepared: PostgresClient? = nil) {
        self.client = client
        self.prepared = prepared ?? client
    }

    /// How many of a group's notifications a page shows, newest first.
    static let listed = 10

    public func add(_ draft: NotificationDraft, format: AggregationFormat, logger: Logger) async throws -> NotificationTouch {
        let group = format.render(type: draft.type, targetID: draft.targetID, userID: draft.actorID, time: Date())
        // Most notifications are new: one statement writes one and counts it into its group.
        // A deadlock with a request taking the same cause back (it holds the group, and waits for
        // this notification's row) rolls this statement back: it runs again.
        var written = try await ConflictRetry.run(logger: logger) {
            try await !NotificationInsert.rows(of: Self.insert(draft, group: group), on: prepared, logger: logger).isEmpty
        }
        if !written { written = try await again(draft, group: group, logger: logger) }
        return NotificationTouch(feed: draft.feed, group: written ? group : nil, activityID: draft.activityID)
    }

    /// The same cause again (a like of a post liked before, or the same like at the same moment):
    /// the old notification is taken back and this one written, moving it to the group of now.
    /// False when nothing was written: the actor is gone.
    private func again(_ draft: NotificationDraft, group: String, logger: Logger) async throws -> Bool {
        try await client.transaction(logger: logger) { connection in
            guard try await Self.take(feed: draft.feed, source: draft.source, on: connection, logger: logger) != nil else {
                return false
            }
            var written = false
            for try await _ in try await connection.query(Self.insert(draft, group: group), logger: logger) { written = true }
            return written
        }
    }

    /// Writes the notification and counts it into its group (made if new) in one statement, which
    /// answers a row unless its cause has one already (or its actor is gone). The group's row is
    /// written after the notification in the same statement: foreign keys are checked at its end.
    static func insert(_ draft: NotificationDraft, group: String) -> PostgresQuery {
        """
        WITH known AS (
            SELECT EXISTS (SELECT 1 FROM notifications WHERE feed = \(draft.feed) AND grp = \(group)
                AND user_id = \(draft.actorID)) AS known
        ), added AS (
            INSERT INTO notifications (id, feed, grp, source, type, user_id, activity_id, context, custom, created_at)
            SELECT \(UUID().lowercasedString), \(draft.feed), \(group), \(draft.source), \(draft.type), u.id,
                \(draft.activityID), \(JSONText.encode(draft.context))::jsonb, \(JSONText.encode(draft.custom))::jsonb, now()
            FROM users u WHERE u.id = \(draft.actorID)
            ON CONFLICT (feed, source) DO NOTHING
            RETURNING feed, grp
        )
        \(unescaped: countedIntoGroup)
        """
    }

    /// The end of a statement that writes a notification: the group of the one `added` returned
    /// (its `feed, grp`) counts it, made if new; `known` says whether its actor is in the group
    /// already. One row when a notification was written.
    static let countedIntoGroup = """
        INSERT INTO notification_groups (feed, grp, activity_count, user_count, created_at, updated_at)
        SELECT feed, grp, 1, 1, now(), now() FROM added
        ON CONFLICT (feed, grp) DO UPDATE SET activity_count = notification_groups.activity_count + 1,
            user_count = notification_groups.user_count + CASE WHEN (SELECT known FROM known) THEN 0 ELSE 1 END,
            updated_at = now()
        RETURNING feed
        """

    public func remove(source: String, logger: Logger) async throws -> NotificationTouch? {
        let taken = try await client.transaction(logger: logger) { connection in
            try await Self.take(feed: nil, source: source, on: connection, logger: logger)
        }
        return taken.map { NotificationTouch(feed: $0.feed, group: $0.group) }
    }

    public func removeAll(activityID: String, logger: Logger) async throws -> [String] {
        try await client.transaction(logger: logger) { connection in
            let feeds = try await Self.takeAll(
                where: "activity_id", is: activityID, limit: 10_000, on: connection, logger: logger)
            return Array(Set(feeds)).sorted()
        }
    }

    /// Takes the notifications whose `column` is `value` (at most `limit`), each as `take` does;
    /// returns the feed of each.
    static func takeAll(
        where column: StaticString, is value: String, limit: Int, on connection: PostgresConnection, logger: Logger
    ) async throws -> [String] {
        let rows = try await connection.query(
            "SELECT feed, source FROM notifications WHERE \(unescaped: "\(column)") = \(value) ORDER BY feed, source LIMIT \(limit)",
            logger: logger)
        var taken: [(String, String)] = []
        for try await row in rows.decode((String, String).self) { taken.append(row) }
        for (feed, source) in taken { _ = try await take(feed: feed, source: source, on: connection, logger: logger) }
        return taken.map(\.0)
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
