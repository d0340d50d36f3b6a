import FeedsCore
import Foundation
import Logging
import PostgresNIO

extension PostgresNotificationStore {
    public func page(feed: String, limit: Int, next: String?, logger: Logger) async throws -> NotificationPage {
        let after = try next.map(Self.cursor)
        let rows = try await client.query(
            """
            SELECT grp, (extract(epoch FROM updated_at) * 1000000)::int8 FROM notification_groups
            WHERE feed = \(feed) AND (\(after == nil) OR (updated_at, grp)
                < (timestamptz 'epoch' + \(after?.micros ?? 0) * interval '1 microsecond', \(after?.group ?? "")))
            ORDER BY updated_at DESC, grp DESC LIMIT \(limit + 1)
            """, logger: logger)
        var listed: [(group: String, micros: Int64)] = []
        for try await (name, micros) in rows.decode((String, Int64).self) { listed.append((name, micros)) }
        let shown = listed.prefix(limit)
        async let status = status(feed: feed, logger: logger)
        let groups = try await groups(feed: feed, shown.map(\.group), logger: logger)
        let next = listed.count > limit ? shown.last.map { Self.token(micros: $0.micros, group: $0.group) } : nil
        return NotificationPage(groups: groups, status: try await status, next: next)
    }

    public func status(feed: String, logger: Logger) async throws -> NotificationStatus {
        try await Self.status(feed: feed, logger: logger) { try await client.query($0, logger: logger) }
    }

    public func mark(feed: String, _ mark: NotificationMark, logger: Logger) async throws -> NotificationStatus {
        try await client.transaction(logger: logger) { connection in
            if mark.allRead || mark.allSeen {
                try await connection.query(
                    """
                    INSERT INTO notification_status (feed, last_read_at, last_seen_at)
                    VALUES (\(feed), CASE WHEN \(mark.allRead) THEN now() END, CASE WHEN \(mark.allSeen) THEN now() END)
                    ON CONFLICT (feed) DO UPDATE SET
                        last_read_at = CASE WHEN \(mark.allRead) THEN now() ELSE notification_status.last_read_at END,
                        last_seen_at = CASE WHEN \(mark.allSeen) THEN now() ELSE notification_status.last_seen_at END
                    """, logger: logger)
            }
            if !mark.read.isEmpty || !mark.seen.isEmpty {
                try await connection.query(
                    """
                    UPDATE notification_groups SET
                        read_at = CASE WHEN grp = ANY(\(mark.read)) THEN now() ELSE read_at END,
                        seen_at = CASE WHEN grp = ANY(\(mark.seen)) OR grp = ANY(\(mark.read)) THEN now() ELSE seen_at END
                    WHERE feed = \(feed) AND (grp = ANY(\(mark.read)) OR grp = ANY(\(mark.seen)))
                    """, logger: logger)
            }
            return try await Self.status(feed: feed, logger: logger) { try await connection.query($0, logger: logger) }
        }
    }

    /// The counts walk only the groups updated since the watermark: marking all read keeps them short.
    static func status(
        feed: String, logger: Logger, _ run: (PostgresQuery) async throws -> PostgresRowSequence
    ) async throws -> NotificationStatus {
        let rows = try await run(
            """
            WITH s AS (
                SELECT (SELECT last_read_at FROM notification_status WHERE feed = \(feed)) AS read_mark,
                       (SELECT last_seen_at FROM notification_status WHERE feed = \(feed)) AS seen_mark
            )
            SELECT
                (SELECT count(*)::int FROM notification_groups g WHERE g.feed = \(feed)
                    AND g.updated_at > COALESCE(s.read_mark, '-infinity') AND (g.read_at IS NULL OR g.read_at < g.updated_at)),
                (SELECT count(*)::int FROM notification_groups g WHERE g.feed = \(feed)
                    AND g.updated_at > COALESCE(s.seen_mark, '-infinity') AND (g.seen_at IS NULL OR g.seen_at < g.updated_at)),
                s.read_mark, s.seen_mark,
                ARRAY(SELECT g.grp FROM notification_groups g WHERE g.feed = \(feed) AND g.read_at IS NOT NULL
                    AND g.updated_at > COALESCE(s.read_mark, '-infinity') AND g.read_at >= g.updated_at
                    ORDER BY g.updated_at DESC LIMIT \(NotificationStatus.listedGroups)),
                ARRAY(SELECT g.grp FROM notification_groups g WHERE g.feed = \(feed) AND g.seen_at IS NOT NULL
                    AND g.updated_at > COALESCE(s.seen_mark, '-infinity') AND g.seen_at >= g.updated_at
                    ORDER BY g.updated_at DESC LIMIT \(NotificationStatus.listedGroups))
            FROM s
            """)
        for try await (unread, unseen, read, seen, readGroups, seenGroups) in rows.decode(
            (Int, Int, Date?, Date?, [String], [String]).self)
        {
            return NotificationStatus(
                unread: unread, unseen: unseen, lastReadAt: read, lastSeenAt: seen, readGroups: readGroups,
                seenGroups: seenGroups)
        }
        throw FeedsError(.internal, "the notification status read no row")
    }

    /// The named groups, in the order given, each with its newest notifications.
    /// With `whileLive`, none unless that activity is live (one round trip for the check and the read).
    func groups(feed: String, _ names: [String], whileLive activityID: String? = nil, logger: Logger) async throws
        -> [AggregatedGroup]
    {
        guard !names.isEmpty else { return [] }
        let rows = try await client.query(
            """
            SELECT g.grp, g.activity_count, g.user_count, g.created_at, g.updated_at,
                g.updated_at <= COALESCE(s.last_read_at, '-infinity') OR COALESCE(g.read_at >= g.updated_at, false),
                g.updated_at <= COALESCE(s.last_seen_at, '-infinity') OR COALESCE(g.seen_at >= g.updated_at, false),
                n.id, n.type, n.context::text, n.custom::text, n.created_at, \(unescaped: UserRow.columns(alias: "u"))
            FROM notification_groups g
            LEFT JOIN notification_status s ON s.feed = g.feed
            CROSS JOIN LATERAL (
                SELECT * FROM notifications n WHERE n.feed = g.feed AND n.grp = g.grp
                ORDER BY n.created_at DESC, n.id DESC LIMIT \(Self.listed)
            ) n
            JOIN users u ON u.id = n.user_id
            WHERE g.feed = \(feed) AND g.grp = ANY(\(names)) AND (\(activityID == nil) OR EXISTS (
                SELECT 1 FROM activities a WHERE a.id = \(activityID ?? "") AND \(unescaped: ActivityLive.predicate("a"))))
            ORDER BY g.updated_at DESC, g.grp DESC, n.created_at DESC, n.id DESC
            """, logger: logger)
        var found: [String: AggregatedGroup] = [:]
        for try await row in rows {
            var columns = RowReader(row)
            let name: String = try columns.next()
            let counts: (Int, Int) = (try columns.next(), try columns.next())
            let times: (Date, Date) = (try columns.next(), try columns.next())
            let marks: (Bool, Bool) = (try columns.next(), try columns.next())
            var group =
                found[name]
                ?? AggregatedGroup(
                    group: name, activities: [], activityCount: counts.0, userCount: counts.1, createdAt: times.0,
                    updatedAt: times.1, isRead: marks.0, isSeen: marks.1)
            group.activities.append(try Self.activity(feed: feed, &columns))
            found[name] = group
        }
        return names.compactMap { found[$0] }
    }

    /// A notification as the activity Stream shows it in its group.
    static func activity(feed: String, _ columns: inout RowReader) throws -> Activity {
        let id: String = try columns.next(), type: String = try columns.next()
        let context = try JSONText.object(try columns.next()), custom = try JSONText.object(try columns.next())
        let created: Date = try columns.next()
        var activity = Activity(
            id: id, type: type, user: try UserRow.user(&columns), text: nil, feeds: [feed], visibility: .private,
            visibilityTag: nil, restrictReplies: "everyone", custom: custom, attachments: [], createdAt: created,
            updatedAt: created, editedAt: nil, deletedAt: nil)
        activity.notificationContext = context
        return activity
    }

    static func token(micros: Int64, group: String) -> String {
        Base64URL.encode(Array("\(micros)|\(group)".utf8))
    }

    static func cursor(_ token: String) throws -> (micros: Int64, group: String) {
        guard token.utf8.count <= 2048, let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8),
            let bar = text.firstIndex(of: "|"), let micros = Int64(text[..<bar])
        else { throw FeedsError.input("next is not a cursor this feed gave", field: "next") }
        return (micros, String(text[text.index(after: bar)...]))
    }
}
