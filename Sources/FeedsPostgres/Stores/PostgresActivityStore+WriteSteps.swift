import FeedsCore
import Logging
import PostgresNIO

/// The steps writes of activities and comments share, each on the write's own connection: the
/// user and feeds made on first use, the check that a user may post into feeds, and attachments
/// with the objects they hold (attached, locked, released).
extension PostgresActivityStore {
    static func ensureUser(_ id: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("INSERT INTO users (id) VALUES (\(id)) ON CONFLICT (id) DO NOTHING", logger: logger)
    }

    /// Creates the feeds among `feeds` that are missing, owned by `creatorID`, each with its group's visibility.
    static func ensureFeeds(_ feeds: [FeedID], creatorID: String, on connection: PostgresConnection, logger: Logger) async throws
    {
        try await ensureFeeds(feeds, creators: feeds.map { _ in creatorID }, on: connection, logger: logger)
    }

    /// Creates the feeds among `feeds` that are missing, each owned by the user its id names (made
    /// too when missing), with its group's visibility.
    static func ensureOwnFeeds(_ feeds: [FeedID], on connection: PostgresConnection, logger: Logger) async throws {
        guard !feeds.isEmpty else { return }
        try await connection.query(
            "INSERT INTO users (id) SELECT DISTINCT u FROM unnest(\(feeds.map(\.id))::text[]) AS x(u) ORDER BY u ON CONFLICT (id) DO NOTHING",
            logger: logger)
        try await ensureFeeds(feeds, creators: feeds.map(\.id), on: connection, logger: logger)
    }

    /// The missing ones among `feeds`, the i-th owned by `creators[i]`, inserted in `fid` order.
    private static func ensureFeeds(_ feeds: [FeedID], creators: [String], on connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.query(
            """
            INSERT INTO feeds (fid, group_id, feed_id, created_by, visibility)
            SELECT f, g, i, c, \(unescaped: FeedGroupSQL.defaultVisibility(ofGroup: "g"))
            FROM unnest(\(feeds.map(\.description))::text[], \(feeds.map(\.group))::text[], \(feeds.map(\.id))::text[],
                \(creators)::text[]) AS x(f, g, i, c)
            ORDER BY f
            ON CONFLICT (fid) DO NOTHING
            """,
            logger: logger)
    }

    /// Refuses `feeds` unless `principal` may post into each: one of theirs, a missing one they may
    /// create (`FeedPermissions`), or one where the app grants them posting (`FeedGrants`). The
    /// server may post anywhere.
    static func checkPostable(_ feeds: [FeedID], by principal: Principal, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        guard let user = principal.userID, !feeds.isEmpty else { return }
        let creatable = feeds.filter { FeedPermissions.mayCreate($0, by: principal) }.map(\.description)
        var bind = SQLBinds()
        let (listed, poster) = (try bind(feeds.map(\.description)), try bind(user))
        let sql = """
            SELECT x.f FROM unnest(\(listed)::text[]) AS x(f) LEFT JOIN feeds d ON d.fid = x.f
            WHERE (d.fid IS NULL AND NOT x.f = ANY(\(try bind(creatable))::text[]))
                OR (d.fid IS NOT NULL AND NOT \(FeedReadable.permits(.post, feed: "d", user: poster))) LIMIT 1
            """
        for try await feed in try await connection.query(bind.query(sql), logger: logger).decode(String.self) {
            throw FeedsError.notAllowed("\(user) may not add activities to \(feed): \(InsertActivity.refusal)")
        }
    }

    /// Inserts attachments in order, and links the uploads among them.
    static func insertAttachments(
        _ attachments: [StoredAttachment], activityID: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        guard !attachments.isEmpty else { return }
        let columns = AttachmentColumns(attachments)
        try await connection.query(
            """
            INSERT INTO attachments (activity_id, position, type, payload, object_key)
            SELECT \(activityID), x.n - 1, NULLIF(x.t, ''), x.p::jsonb, NULLIF(x.k, '')
            FROM unnest(\(columns.types)::text[], \(columns.payloads)::text[], \(columns.keys)::text[]) WITH ORDINALITY AS x(t, p, k, n)
            """,
            logger: logger
        )
        try await attach(columns.linked, on: connection, logger: logger)
    }

    /// Flips linked objects to attached; an object claimed for deletion meanwhile (by the sweeper
    /// or its owner) refuses the write.
    static func attach(_ linked: [String], on connection: PostgresConnection, logger: Logger) async throws {
        guard !linked.isEmpty else { return }
        let rows = try await connection.query(
            """
            UPDATE cdn_objects SET state = 'attached', updated_at = now()
            WHERE key = ANY(\(linked)) AND state IN ('reserved', 'stored', 'attached', 'released') RETURNING key
            """,
            logger: logger
        )
        var attached = Set<String>()
        for try await key in rows.decode(String.self) { attached.insert(key) }
        if let missing = linked.first(where: { !attached.contains($0) }) {
            throw FeedsError.input("attachment object \(missing) does not exist or was deleted", field: "attachments")
        }
    }

    /// Locks the records of objects an activity holds before its attachments go, so that two
    /// writes dropping the last two holders of one object run one after the other, and the second
    /// sees the first's commit when it checks whether anything still holds it.
    static func lockObjects(_ keys: [String], on connection: PostgresConnection, logger: Logger) async throws {
        guard !keys.isEmpty else { return }
        let rows = try await connection.query(
            "SELECT key FROM cdn_objects WHERE key = ANY(\(keys)) ORDER BY key FOR UPDATE", logger: logger)
        for try await _ in rows {}
    }

    /// Objects among `keys` that no attachment (of an activity or a comment) holds any more are
    /// released, for gc to delete.
    static func release(_ keys: [String], on connection: PostgresConnection, logger: Logger) async throws {
        guard !keys.isEmpty else { return }
        try await connection.query(
            """
            UPDATE cdn_objects o SET state = 'released', updated_at = now()
            WHERE o.key = ANY(\(keys)) AND o.state = 'attached'
              AND NOT EXISTS (SELECT 1 FROM attachments t WHERE t.object_key = o.key)
              AND NOT EXISTS (SELECT 1 FROM comment_attachments t WHERE t.object_key = o.key)
            """,
            logger: logger
        )
    }
}
