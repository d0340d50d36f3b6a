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

    public func followSuggestions(group: String, for user: String, limit: Int, logger: Logger) async throws
        -> [FollowSuggestion]
    {
        let query = try Self.suggestionsSQL(group: group, for: user, limit: limit)
        var suggestions: [FollowSuggestion] = []
        for try await row in try await client.query(query, logger: logger) {
            var columns = RowReader(row)
            let feed = try FeedRow.feed(&columns)
            suggestions.append(FollowSuggestion(feed: feed, mutuals: try columns.next()))
        }
        return suggestions
    }

    /// Friends of friends first: the feeds followed by the owners of the feeds `user` follows,
    /// by how many of them follow each; then the most followed. Either way only feeds of `group`
    /// that `user` may read, does not own or follow yet, and whose owner neither blocked nor was
    /// blocked by them. Each side is a walk that stops at `limit`.
    static func suggestionsSQL(group: String, for user: String, limit: Int) throws -> PostgresQuery {
        var bind = SQLBinds()
        let (me, groupID, count) = (try bind(user), try bind(group), try bind(limit))
        let eligible = """
            f.group_id = \(groupID) AND f.created_by <> \(me) AND f.fid NOT IN (SELECT fid FROM mine)
              AND \(FeedReadable.predicate(feed: "f", user: me)) AND \(Unblocked.predicate("f.created_by", me))
            """
        return bind.query(
            """
            WITH mine AS MATERIALIZED (
                SELECT DISTINCT w.target_fid AS fid FROM feeds s JOIN follows w ON w.source_fid = s.fid WHERE s.created_by = \(me)),
            friends AS MATERIALIZED (
                SELECT DISTINCT t.created_by AS id FROM mine m JOIN feeds t ON t.fid = m.fid WHERE t.created_by <> \(me)),
            fof AS (
                SELECT w.target_fid AS fid, count(DISTINCT fs.created_by)::int AS mutuals
                FROM friends fr JOIN feeds fs ON fs.created_by = fr.id
                JOIN follows w ON w.source_fid = fs.fid AND w.status = 'accepted'
                GROUP BY w.target_fid),
            picked AS (
                (SELECT f.fid, fof.mutuals FROM fof JOIN feeds f ON f.fid = fof.fid WHERE \(eligible)
                 ORDER BY fof.mutuals DESC, f.follower_count DESC, f.fid LIMIT \(count))
                UNION ALL
                (SELECT f.fid, 0 FROM feeds f WHERE \(eligible)
                 ORDER BY f.follower_count DESC, f.created_at DESC, f.fid LIMIT \(count)))
            SELECT \(FeedRow.columns), p.mutuals
            FROM (SELECT DISTINCT ON (fid) fid, mutuals FROM picked ORDER BY fid, mutuals DESC) p
            JOIN feeds f ON f.fid = p.fid JOIN users u ON u.id = f.created_by
            ORDER BY p.mutuals DESC, f.follower_count DESC, f.created_at DESC, f.fid LIMIT \(count)
            """)
    }
}
