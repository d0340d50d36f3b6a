import FeedsCore
import Logging
import PostgresNIO

extension PostgresActivityStore {
    public func createFeeds(_ feeds: [FeedCreation], by principal: Principal, logger: Logger) async throws -> [Feed] {
        for feed in feeds { try FeedPermissions.checkCreate(feed.id, by: principal) }
        // One row per feed, in fid order, so two batches naming the same feeds lock them alike.
        let rows = Dictionary(feeds.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }).values
            .sorted { $0.id.description < $1.id.description }
        try await client.transaction(logger: logger) { connection in
            try await connection.query(
                "INSERT INTO users (id) SELECT DISTINCT unnest(\(rows.map(\.creatorID))::text[]) ORDER BY 1 ON CONFLICT (id) DO NOTHING",
                logger: logger)
            try await connection.query(
                """
                INSERT INTO feeds (fid, group_id, feed_id, created_by, visibility, name, description, custom)
                SELECT f, g, i, c, COALESCE(NULLIF(v, ''), \(unescaped: FeedGroupSQL.defaultVisibility(ofGroup: "g"))), n, d, cu::jsonb
                FROM unnest(\(rows.map(\.id.description))::text[], \(rows.map(\.id.group))::text[], \(rows.map(\.id.id))::text[],
                    \(rows.map(\.creatorID))::text[], \(rows.map { $0.visibility?.rawValue ?? "" })::text[],
                    \(rows.map { $0.details.name ?? "" })::text[], \(rows.map { $0.details.description ?? "" })::text[],
                    \(rows.map { JSONText.encode($0.details.custom ?? [:]) })::text[]) AS x(f, g, i, c, v, n, d, cu)
                ON CONFLICT (fid) DO NOTHING
                """,
                logger: logger)
        }
        let found = Dictionary(
            try await self.feeds(feeds.map(\.id), readableBy: principal.userID, logger: logger).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        return feeds.compactMap { found[$0.id] }
    }

    public func followSuggestions(group: String, for user: String, limit: Int, logger: Logger) async throws -> [Feed] {
        var bind = SQLBinds()
        let me = try bind(user)
        let sql = """
            SELECT \(FeedRow.columns) \(FeedRow.from)
            WHERE f.group_id = \(try bind(group)) AND f.created_by <> \(me) AND \(FeedReadable.predicate(feed: "f", user: me))
              AND NOT EXISTS (SELECT 1 FROM follows w JOIN feeds s ON s.fid = w.source_fid
                              WHERE w.target_fid = f.fid AND s.created_by = \(me))
            ORDER BY f.follower_count DESC, f.created_at DESC, f.fid
            LIMIT \(try bind(limit))
            """
        var feeds: [Feed] = []
        for try await row in try await client.query(bind.query(sql), logger: logger) {
            var columns = RowReader(row)
            feeds.append(try FeedRow.feed(&columns))
        }
        return feeds
    }
}
