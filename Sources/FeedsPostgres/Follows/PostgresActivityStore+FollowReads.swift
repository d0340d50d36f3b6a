import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// The reads of `FollowStore`: follows by source, target, status and time, and who may read a feed.
extension PostgresActivityStore {
    public func queryFollows(_ query: FollowQuery, viewer: Principal, logger: Logger) async throws -> FollowPage {
        let built = try Self.sql(for: query, viewer: viewer)
        var rows: [(micros: Int64, follow: Follow)] = []
        for row in try await self.rows(of: built, preparedAs: [FeedFollowers.self, FeedFollowing.self], logger: logger) {
            var reader = RowReader(row)
            let micros: Int64 = try reader.next()
            let columns = try FollowColumns(&reader)
            let source = try FeedRow.feed(&reader), target = try FeedRow.feed(&reader)
            rows.append((micros, try columns.follow(feeds: [columns.source: source, columns.target: target])))
        }
        let (page, next) = keysetPage(rows, limit: query.limit) {
            FollowCursor(
                ascending: query.ascending, micros: $0.micros, source: $0.follow.source.id.description,
                target: $0.follow.target.id.description)
        }
        return FollowPage(follows: page.map(\.follow), next: next)
    }

    /// The SELECT for a page of follows as `viewer` may see them.
    static func sql(for query: FollowQuery, viewer: Principal) throws -> PostgresQuery {
        var bind = SQLBinds()
        // The page of follows first, walking an index in order; then the feeds of just those.
        // (Joined before the LIMIT, a reader following 1,000 feeds had all 1,000 joined, then sorted.)
        var sql = "SELECT w.* FROM follows w"
        if viewer.userID != nil { sql += " JOIN feeds s ON s.fid = w.source_fid JOIN feeds t ON t.fid = w.target_fid" }
        sql += " WHERE true"
        // One feed is `=`, so that its index gives the order; `ANY` of one would not.
        for (column, fids) in [("w.source_fid", query.sources), ("w.target_fid", query.targets)] {
            guard let fids else { continue }
            sql += fids.count == 1 ? " AND \(column) = \(try bind(fids[0]))" : " AND \(column) = ANY(\(try bind(fids)))"
        }
        if let statuses = query.statuses { sql += " AND w.status = ANY(\(try bind(statuses.map(\.rawValue))))" }
        for bound in query.createdAt { sql += " AND w.created_at \(bound.comparison) \(try bind.time(bound.date))" }
        if let user = viewer.userID {
            // A user sees the follows of their own feeds, and the followers of feeds they may read
            // (a feed's followers are part of it, as its page shows them).
            let me = try bind(user)
            sql += " AND (t.created_by = \(me) OR s.created_by = \(me) OR \(FeedReadable.predicate(feed: "t", user: me)))"
        }
        let order = query.ascending ? "ASC" : "DESC"
        if let cursor = query.cursor {
            sql += " AND (w.created_at, w.source_fid, w.target_fid) \(query.ascending ? ">" : "<")"
            sql += " (\(try bind.time(microseconds: cursor.micros)), \(try bind(cursor.source)), \(try bind(cursor.target)))"
        }
        let ordering = "ORDER BY w.created_at \(order), w.source_fid \(order), w.target_fid \(order)"
        sql = """
            SELECT (extract(epoch FROM w.created_at) * 1000000)::int8, \(FollowColumns.list(alias: "w")),
                \(FeedRow.columns(feed: "s", user: "su")), \(FeedRow.columns(feed: "t", user: "tu"))
            FROM (\(sql) \(ordering) LIMIT \(try bind(query.limit + 1))) w
            JOIN feeds s ON s.fid = w.source_fid JOIN feeds t ON t.fid = w.target_fid
            JOIN users su ON su.id = s.created_by JOIN users tu ON tu.id = t.created_by
            \(ordering)
            """
        return bind.query(sql)
    }

    public func mayRead(_ feed: Feed, userID: String, logger: Logger) async throws -> Bool {
        // Open to every user by the grants this request goes by: no query (the page's activities
        // are still checked against the database's own rows).
        if feed.createdBy.id == userID || FeedGrants.inForce.allows(.read, .stranger, feed.visibility) { return true }
        var bind = SQLBinds()
        let sql =
            "SELECT 1 FROM feeds f WHERE f.fid = \(try bind(feed.id.description)) AND \(FeedReadable.predicate(feed: "f", user: try bind(userID)))"
        for try await _ in try await reads.query(bind.query(sql), logger: logger) { return true }
        return false
    }
}

/// A feed's first page of accepted followers as its page lists them (the server's read, the feed
/// found readable first): prepared.
enum FeedFollowers: PreparedRead {
    static let name = "FeedFollowers"
    static let sql = listed(\.targets)
}

/// The feeds a feed follows, as its page lists them: prepared.
enum FeedFollowing: PreparedRead {
    static let name = "FeedFollowing"
    static let sql = listed(\.sources)
}

/// The text of a first page of one feed's accepted follows on `side`, as the server reads it.
private func listed(_ side: WritableKeyPath<FollowQuery, [String]?>) -> String {
    var sample = FollowQuery(limit: 1)
    sample[keyPath: side] = ["-"]
    sample.statuses = [.accepted]
    return try! PostgresActivityStore.sql(for: sample, viewer: .server).sql  // a fixed, valid sample
}
