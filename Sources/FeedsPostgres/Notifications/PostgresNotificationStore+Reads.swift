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
        var read = NotificationGroupRows(feed: feed)
        for try await row in rows {
            var columns = RowReader(row)
            try read.read(&columns)
        }
        let listed = read.groups()
        let shown = listed.prefix(limit)
        let next = listed.count > limit ? shown.last.map { Self.token(micros: $0.micros, group: $0.group.group) } : nil
        return NotificationPage(groups: shown.map(\.group), status: try await status, next: next)
    }

    /// What a group's rows carry, in `NotificationGroupRows`' order: the group's name, one of its newest
    /// notifications with its user, then the group's counts and times and whether it is read and
    /// seen. A row of a group or user read before stops before their columns.
    private static let groupColumns = """
        g.grp, n.id, n.type, n.context::text, n.custom::text, n.created_at, \(UserRow.columns(alias: "u")),
            g.activity_count, g.user_count, g.created_at, g.updated_at, (extract(epoch FROM g.updated_at) * 1000000)::int8,
            g.updated_at <= COALESCE(s.last_read_at, '-infinity') OR COALESCE(g.read_at >= g.updated_at, false),
            g.updated_at <= COALESCE(s.last_seen_at, '-infinity') OR COALESCE(g.seen_at >= g.updated_at, false)
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

    /// The feed's status, as a page shows it.
    func status(feed: String, logger: Logger) async throws -> NotificationStatus {
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

    /// The feed's two watermarks, as `marks` (`read_mark`, `seen_mark`), for `statusValues`.
    private static func statusMarks(feed: String) -> String {
        """
        SELECT (SELECT last_read_at FROM notification_status WHERE feed = \(feed)) AS read_mark,
               (SELECT last_seen_at FROM notification_status WHERE feed = \(feed)) AS seen_mark
        """
    }

    /// The status' six values, from `marks`. The counts walk only the groups updated since the
    /// watermark: marking all read keeps them short. `listed` is how many read and seen groups are named.
    private static func statusValues(feed: String, listed: String) -> String {
        """
        (SELECT count(*)::int FROM notification_groups g WHERE g.feed = \(feed)
            AND g.updated_at > COALESCE(marks.read_mark, '-infinity') AND (g.read_at IS NULL OR g.read_at < g.updated_at)),
        (SELECT count(*)::int FROM notification_groups g WHERE g.feed = \(feed)
            AND g.updated_at > COALESCE(marks.seen_mark, '-infinity') AND (g.seen_at IS NULL OR g.seen_at < g.updated_at)),
        marks.read_mark, marks.seen_mark,
        ARRAY(SELECT g.grp FROM notification_groups g WHERE g.feed = \(feed) AND g.read_at IS NOT NULL
            AND g.updated_at > COALESCE(marks.read_mark, '-infinity') AND g.read_at >= g.updated_at
            ORDER BY g.updated_at DESC LIMIT \(listed)),
        ARRAY(SELECT g.grp FROM notification_groups g WHERE g.feed = \(feed) AND g.seen_at IS NOT NULL
            AND g.updated_at > COALESCE(marks.seen_mark, '-infinity') AND g.seen_at >= g.updated_at
            ORDER BY g.updated_at DESC LIMIT \(listed))
        """
    }

    /// $1 is the feed; $2 how many read and seen groups are named.
    static let statusSQL =
        "WITH marks AS (\(statusMarks(feed: "$1"))) SELECT \(statusValues(feed: "$1", listed: "$2")) FROM marks"

    static func status<Rows: AsyncSequence>(
        feed: String, logger: Logger, _ run: (PostgresQuery) async throws -> Rows
    ) async throws -> NotificationStatus where Rows.Element == PostgresRow {
        var binds = PostgresBindings()
        binds.append(feed)
        binds.append(NotificationStatus.listedGroups)
        let rows = try await run(PostgresQuery(unsafeSQL: statusSQL, binds: binds))
        for try await row in rows {
            var columns = RowReader(row)
            return try status(&columns)
        }
        throw FeedsError(.internal, "the notification status read no row")
    }

    /// `statusValues`' six columns.
    private static let statusColumnCount = 6

    private static func status(_ columns: inout RowReader) throws -> NotificationStatus {
        NotificationStatus(
            unread: try columns.next(), unseen: try columns.next(), lastReadAt: try columns.next(),
            lastSeenAt: try columns.next(), readGroups: try columns.next(), seenGroups: try columns.next())
    }

    public func changes(_ touched: [NotificationTouch], logger: Logger) async throws -> [NotificationChange] {
        guard !touched.isEmpty else { return [] }
        let read = try await Self.changes(touched, on: prepared, logger: logger)
        // A group about an activity deleted (or expired) while its notification was written,
        // after the delete took the activity's notifications back: this one goes too, and the
        // feeds read again. Either order ends clean.
        let gone = Set(zip(touched, read).compactMap { $1.live ? nil : $0.activityID })
        guard !gone.isEmpty else { return read.map(\.change) }
        for id in gone.sorted() { _ = try await removeAll(activityID: id, logger: logger) }
        return try await Self.changes(touched, on: prepared, logger: logger).map(\.change)
    }

    /// `changesSQL`'s rows, an item's together: its status, and its group unless gone (or not live).
    private static func changes(_ touched: [NotificationTouch], on client: PostgresClient, logger: Logger) async throws
        -> [(change: NotificationChange, live: Bool)]
    {
        var binds = PostgresBindings()
        binds.append(touched.map(\.feed))
        binds.append(touched.map { $0.group ?? "" })
        binds.append(touched.map { $0.activityID ?? "" })
        binds.append(NotificationStatus.listedGroups)
        let rows = try await NotificationChangesRead.sequence(
            of: PostgresQuery(unsafeSQL: Self.changesSQL, binds: binds), on: client, logger: logger)
        var read = touched.map { (status: NotificationStatus?.none, live: true, groups: NotificationGroupRows(feed: $0.feed)) }
        for try await row in rows {
            var columns = RowReader(row)
            let item = Int(try columns.next() as Int64) - 1
            guard read.indices.contains(item) else { throw FeedsError(.internal, "the notification changes read a stray row") }
            read[item].live = try columns.next()
            let status = try Self.status(&columns)
            read[item].status = read[item].status ?? status
            guard row.dropFirst(2 + Self.statusColumnCount).first?.bytes != nil else { continue }  // no group
            try read[item].groups.read(&columns)
        }
        return try read.map { item in
            guard let status = item.status else { throw FeedsError(.internal, "the notification changes left out a feed") }
            return (NotificationChange(group: item.groups.groups().first?.group, status: status), item.live)
        }
    }

    /// For each touched group in one statement ($1 feeds, $2 groups, '' for none, $3 the
    /// activities they are about, '' for none; $4 how many read and seen groups are named): its
    /// place in the list, whether its activity is live, the feed's status, then the group with
    /// its newest notifications, a row each (none when it is gone or its activity is not live).
    /// Every row carries the status; an item with no group has one row.
    static let changesSQL = """
        SELECT x.item, x.live, st.*, gr.*
        FROM (
            SELECT t.item, t.feed, NULLIF(t.grp, '') AS grp, t.activity = '' OR EXISTS (
                SELECT 1 FROM activities a WHERE a.id = t.activity AND \(ActivityLive.predicate("a"))) AS live
            FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS t(feed, grp, activity, item)
        ) x
        CROSS JOIN LATERAL (\(statusMarks(feed: "x.feed"))) marks
        CROSS JOIN LATERAL (SELECT \(statusValues(feed: "x.feed", listed: "$4"))) st
        LEFT JOIN LATERAL (
            SELECT \(groupColumns),
                row_number() OVER (ORDER BY n.created_at DESC, n.id DESC) AS position
            FROM notification_groups g
            LEFT JOIN notification_status s ON s.feed = g.feed
            CROSS JOIN LATERAL (
                SELECT * FROM notifications n WHERE n.feed = g.feed AND n.grp = g.grp
                ORDER BY n.created_at DESC, n.id DESC LIMIT \(listed)
            ) n
            JOIN users u ON u.id = n.user_id
            WHERE g.feed = x.feed AND g.grp = x.grp AND x.live
        ) gr ON true
        ORDER BY x.item, gr.position
        """

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

enum NotificationChangesRead: PreparedRead {
    static let name = "NotificationChangesRead"
    static let sql = PostgresNotificationStore.changesSQL
}

enum NotificationStatusRead: PreparedRead {
    static let name = "NotificationStatusRead"
    static let sql = PostgresNotificationStore.statusSQL
}
