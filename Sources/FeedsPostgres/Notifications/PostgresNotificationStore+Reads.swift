import FeedsCore
import Foundation
import Logging
import PostgresNIO

extension PostgresNotificationStore {
    public func page(feed: String, limit: Int, next: String?, logger: Logger) async throws -> NotificationPage {
        let after = try next.map(Self.cursor)
        var binds = PostgresBindings()
        binds.append(feed)
        binds.append(after == nil)
        binds.append(after?.micros ?? 0)
        binds.append(after?.group ?? "")
        binds.append(limit)
        binds.append(Self.listed)
        async let status = status(feed: feed, logger: logger)
        let rows = try await reads.query(PostgresQuery(unsafeSQL: Self.pageSQL, binds: binds), logger: logger)
        let listed = try await Self.groups(feed: feed, rows)
        let shown = listed.prefix(limit)
        let next = listed.count > limit ? shown.last.map { Self.token(micros: $0.micros, group: $0.group.group) } : nil
        return NotificationPage(groups: shown.map(\.group), status: try await status, next: next)
    }

    /// What a group's rows carry, in `groups(feed:_:)`'s order: the group, whether it is read and
    /// seen, then each of its newest notifications with its user.
    private static let groupColumns = """
        g.grp, g.activity_count, g.user_count, g.created_at, g.updated_at, (extract(epoch FROM g.updated_at) * 1000000)::int8,
            g.updated_at <= COALESCE(s.last_read_at, '-infinity') OR COALESCE(g.read_at >= g.updated_at, false),
            g.updated_at <= COALESCE(s.last_seen_at, '-infinity') OR COALESCE(g.seen_at >= g.updated_at, false),
            n.id, n.type, n.context::text, n.custom::text, n.created_at, \(UserRow.columns(alias: "u"))
        """

    /// A page in one statement: the groups after the cursor ($2: none; $3, $4: the last group's
    /// time and name), newest first, each with its newest $6 notifications. One group past the page,
    /// with one notification, tells whether there is a next. `bench/pgbench/read-bell.sql` runs it.
    static let pageSQL = """
        SELECT \(groupColumns)
        FROM (
            SELECT *, row_number() OVER (ORDER BY updated_at DESC, grp DESC) AS position FROM notification_groups
            WHERE feed = $1 AND ($2 OR (updated_at, grp) < (timestamptz 'epoch' + $3 * interval '1 microsecond', $4))
            ORDER BY updated_at DESC, grp DESC LIMIT $5 + 1
        ) g
        LEFT JOIN notification_status s ON s.feed = g.feed
        CROSS JOIN LATERAL (
            SELECT * FROM notifications n WHERE n.feed = g.feed AND n.grp = g.grp
            ORDER BY n.created_at DESC, n.id DESC LIMIT CASE WHEN g.position <= $5 THEN $6 ELSE 1 END
        ) n
        JOIN users u ON u.id = n.user_id
        ORDER BY g.updated_at DESC, g.grp DESC, n.created_at DESC, n.id DESC
        """

    public func status(feed: String, logger: Logger) async throws -> NotificationStatus {
        try await Self.status(feed: feed, logger: logger) { query in
            try await NotificationStatusRead.sequence(of: query, on: ReadRoute.prepared(or: prepared), logger: logger)
        }
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

    /// The counts walk only the groups updated since the watermark: marking all read keeps them
    /// short. $1 is the feed; $2 how many read and seen groups are named.
    static let statusSQL = """
        WITH s AS (
            SELECT (SELECT last_read_at FROM notification_status WHERE feed = $1) AS read_mark,
                   (SELECT last_seen_at FROM notification_status WHERE feed = $1) AS seen_mark
        )
        SELECT
            (SELECT count(*)::int FROM notification_groups g WHERE g.feed = $1
                AND g.updated_at > COALESCE(s.read_mark, '-infinity') AND (g.read_at IS NULL OR g.read_at < g.updated_at)),
            (SELECT count(*)::int FROM notification_groups g WHERE g.feed = $1
                AND g.updated_at > COALESCE(s.seen_mark, '-infinity') AND (g.seen_at IS NULL OR g.seen_at < g.updated_at)),
            s.read_mark, s.seen_mark,
            ARRAY(SELECT g.grp FROM notification_groups g WHERE g.feed = $1 AND g.read_at IS NOT NULL
                AND g.updated_at > COALESCE(s.read_mark, '-infinity') AND g.read_at >= g.updated_at
                ORDER BY g.updated_at DESC LIMIT $2),
            ARRAY(SELECT g.grp FROM notification_groups g WHERE g.feed = $1 AND g.seen_at IS NOT NULL
                AND g.updated_at > COALESCE(s.seen_mark, '-infinity') AND g.seen_at >= g.updated_at
                ORDER BY g.updated_at DESC LIMIT $2)
        FROM s
        """

    static func status<Rows: AsyncSequence>(
        feed: String, logger: Logger, _ run: (PostgresQuery) async throws -> Rows
    ) async throws -> NotificationStatus where Rows.Element == PostgresRow {
        var binds = PostgresBindings()
        binds.append(feed)
        binds.append(NotificationStatus.listedGroups)
        let rows = try await run(PostgresQuery(unsafeSQL: statusSQL, binds: binds))
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
        let query = Self.groupsQuery(feed: feed, names, whileLive: activityID)
        let rows = try await NotificationGroupsRead.sequence(of: query, on: ReadRoute.prepared(or: prepared), logger: logger)
        let found = Dictionary(try await Self.groups(feed: feed, rows).map { ($0.group.group, $0.group) }) { first, _ in first }
        return names.compactMap { found[$0] }
    }

    /// The named groups' read: a fixed text, its values bound.
    static func groupsQuery(feed: String, _ names: [String], whileLive activityID: String?) -> PostgresQuery {
        """
        SELECT \(unescaped: Self.groupColumns)
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
        """
    }

    /// Rows of `groupColumns`, a group's rows together, into groups (with their times in
    /// microseconds, for cursors) in the order they came. A user who comes again is read once.
    static func groups<Rows: AsyncSequence>(feed: String, _ rows: Rows) async throws -> [(group: AggregatedGroup, micros: Int64)]
    where Rows.Element == PostgresRow {
        var groups: [(group: AggregatedGroup, micros: Int64)] = []
        var users: [String: User] = [:]
        let feeds = [feed]  // one array for every notification
        for try await row in rows {
            var columns = RowReader(row)
            let name: String = try columns.next()
            if groups.last?.group.group != name {
                let counts: (Int, Int) = (try columns.next(), try columns.next())
                let times: (Date, Date, Int64) = (try columns.next(), try columns.next(), try columns.next())
                let marks: (Bool, Bool) = (try columns.next(), try columns.next())
                let group = AggregatedGroup(
                    group: name, activities: [], activityCount: counts.0, userCount: counts.1, createdAt: times.0,
                    updatedAt: times.1, isRead: marks.0, isSeen: marks.1)
                groups.append((group, times.2))
            } else {
                columns.skip(7)
            }
            let id: String = try columns.next(), type: String = try columns.next()
            let context = JSONObjectText(trusted: try columns.next()), custom = try JSONText.object(try columns.next())
            let created: Date = try columns.next()
            let userID: String = try columns.next()
            let user: User
            if let known = users[userID] {
                user = known
            } else {
                user = try UserRow.user(id: userID, &columns)
                users[userID] = user
            }
            var activity = Activity(
                id: id, type: type, user: user, text: nil, feeds: feeds, visibility: .private, visibilityTag: nil,
                restrictReplies: "everyone", custom: custom, attachments: [], createdAt: created, updatedAt: created,
                editedAt: nil, deletedAt: nil)
            activity.notificationContext = context
            groups[groups.count - 1].group.activities.append(activity)
        }
        return groups
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

/// The statements a notifying write runs, prepared on the generic-plan pool (`prepared`): in the
/// reaction bench, planning them took PostgreSQL 1.5 ms a notification, running them 0.5 ms.
enum NotificationInsert: PreparedRead {
    static let name = "NotificationInsert"
    static let sql = PostgresNotificationStore.insert(
        NotificationDraft(recipient: "", type: "", actorID: "", targetID: "", source: "", context: [:]), group: ""
    ).sql
}

enum NotificationGroupsRead: PreparedRead {
    static let name = "NotificationGroupsRead"
    static let sql = PostgresNotificationStore.groupsQuery(feed: "", [], whileLive: nil).sql
}

enum NotificationStatusRead: PreparedRead {
    static let name = "NotificationStatusRead"
    static let sql = PostgresNotificationStore.statusSQL
}
