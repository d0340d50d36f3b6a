import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// A feed read through a view: one statement. Each selector is an index walk, newest first, of
/// what it offers (the feed's copies or posts, the recent popular, a filter's matches), kept to
/// what the reader may read; an activity two selectors offer counts once, as the first one's.
/// Newest first, each walk stops at the page's end; ranked, each offers its newest
/// `ViewPageQuery.rankedCandidates`, scored in the database (`RankingSQL`) and paged by
/// (score, id) at a time frozen in the cursor.
extension PostgresActivityStore {
    public func viewPage(_ query: ViewPageQuery, logger: Logger) async throws -> ActivityPage {
        let now = query.cursor?.score != nil ? Date(microsecondsSince1970: query.cursor!.micros) : query.now
        let built = try Self.viewSQL(query, now: now)
        let ranked = query.view.ranking != nil
        var rows: [(row: ActivityRow.Decoded, score: Double)] = []
        for try await row in try await reads.query(built, logger: logger) {
            let cells = row.makeRandomAccess()
            let score = ranked ? try cells[cells.count - 1].decode(Double.self) : 0
            rows.append((try ActivityRow.decode(row), score))
        }
        let hasMore = rows.count > query.limit
        if hasMore { rows.removeLast() }
        var next: ActivityCursor?
        if hasMore, let last = rows.last {
            next =
                ranked
                ? ActivityCursor(
                    micros: now.microsecondsSince1970, id: last.row.activity.id, direction: .older, score: last.score)
                : ActivityCursor(micros: last.row.micros, id: last.row.activity.id, direction: .older)
        }
        let page = ActivityPage(activities: rows.map(\.row.activity), next: next, prev: nil)
        var asQuery = ActivityQuery(viewer: query.viewer)
        asQuery.ownFieldsOf = query.ownFieldsOf
        return try await enriched(page, asQuery, logger: logger) { try await reads.query($0, logger: logger) }
    }

    static func viewSQL(_ query: ViewPageQuery, now: Date) throws -> PostgresQuery {
        var bind = SQLBinds()
        let own = try query.ownFieldsOf.map { try bind($0) }
        let viewer = try query.viewer.userID.map { try bind($0) }
        let nowSeconds = try bind(now.timeIntervalSince1970)
        let ranking = query.view.ranking
        let perSelector = try bind(ranking == nil ? query.limit + 1 : ViewPageQuery.rankedCandidates)
        // Newest first, each walk starts past the cursor; a ranked read filters by score instead.
        var after: (time: String, id: String)?
        if let cursor = query.cursor, cursor.score == nil {
            after = (try bind.time(microseconds: cursor.micros), try bind(cursor.id))
        }
        var branches: [String] = []
        for (index, selector) in query.view.selectors.enumerated() {
            var sql: String
            var key = ("a.created_at", "a.id")
            switch selector.kind {
            case .following, .currentFeed:
                let feed = try bind(query.feed.description)
                key = ("f.created_at", "f.activity_id")
                sql = "SELECT f.activity_id AS id, \(index) AS k FROM activity_feeds f JOIN activities a ON a.id = f.activity_id"
                sql += " WHERE f.feed = \(feed) AND f.via IS \(selector.kind == .following ? "NOT NULL" : "NULL")"
                // The feed's rows are for those who may read the feed (its copies say whom its owner follows).
                if let viewer {
                    sql += " AND EXISTS (SELECT 1 FROM feeds qf WHERE qf.fid = \(feed)"
                    sql += " AND \(FeedReadable.predicate(feed: "qf", user: viewer)))"
                }
                sql += try conditions(ActivityQuery(viewer: query.viewer), viewer: viewer, hiddenBy: own, key: key, &bind)
            case .popular:
                let least = try bind(selector.minPopularity ?? ActivitySelection.defaultMinPopularity)
                sql = "SELECT a.id, \(index) AS k FROM activities a WHERE a.visibility = 'public'"
                sql += " AND \(ActivitySortSQL.popularity) >= \(least)"
                sql += try conditions(ActivityQuery(viewer: query.viewer), viewer: viewer, hiddenBy: own, key: key, &bind)
            case .query:
                var filtered = ActivityQuery(viewer: query.viewer)
                try ActivityFilter.apply(selector.filter ?? [:], to: &filtered)
                sql = "SELECT a.id, \(index) AS k FROM activities a WHERE true"
                if let feeds = filtered.feeds {
                    sql += " AND EXISTS (SELECT 1 FROM activity_feeds qa WHERE qa.activity_id = a.id AND qa.via IS NULL"
                    sql += " AND qa.feed = ANY(\(try bind(feeds))))"
                    filtered.feeds = nil
                }
                sql += try conditions(filtered, viewer: viewer, hiddenBy: own, key: key, &bind)
            }
            let window =
                selector.cutoffWindow
                ?? (selector.kind == .popular && selector.cutoffTime == nil ? ActivitySelection.defaultPopularWindow : nil)
            if let window {
                sql += " AND \(key.0) > to_timestamp(\(nowSeconds)::float8) - \(try bind(window)) * interval '1 second'"
            }
            if let cutoff = selector.cutoffTime { sql += " AND \(key.0) > \(try bind.time(cutoff))" }
            if let after { sql += " AND (\(key.0), \(key.1)) < (\(after.time), \(after.id))" }
            sql += " ORDER BY \(key.0) DESC, \(key.1) DESC LIMIT \(perSelector)"
            branches.append("(\(sql))")
        }
        let picked = "SELECT DISTINCT ON (id) id, k FROM (\(branches.joined(separator: " UNION ALL "))) c ORDER BY id, k"
        let sources = query.view.selectors.map(\.kind.rawValue)
        let source = "(\(try bind(sources))::text[])[p.k + 1]"
        let limit = try bind(query.limit + 1)
        guard let ranking else {
            return bind.query(
                """
                SELECT \(ActivityRow.columns(own: own, viewer: viewer, shownTo: viewer)) FROM (\(picked)) p
                JOIN activities a ON a.id = p.id JOIN users u ON u.id = a.user_id
                ORDER BY a.created_at DESC, a.id DESC LIMIT \(limit)
                """)
        }
        let score = try RankingSQL(ranking: ranking, now: now.timeIntervalSince1970).score(&bind)
        var sql = """
            SELECT \(ActivityRow.columns(own: own, viewer: viewer, shownTo: viewer)), s.score FROM (
                SELECT a.id, \(score) AS score FROM (SELECT p.id, \(source) AS src FROM (\(picked)) p) p
                JOIN activities a ON a.id = p.id) s
            JOIN activities a ON a.id = s.id JOIN users u ON u.id = a.user_id
            """
        if let cursor = query.cursor, let edge = cursor.score {
            sql += " WHERE (s.score, s.id) < (\(try bind(edge))::float8, \(try bind(cursor.id)))"
        }
        sql += " ORDER BY s.score DESC, s.id DESC LIMIT \(limit)"
        return bind.query(sql)
    }
}
