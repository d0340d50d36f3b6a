import FeedsCore
import Foundation
import Logging
import PostgresNIO

extension PostgresActivityStore {
    public func queryActivities(_ query: ActivityQuery, logger: Logger) async throws -> ActivityPage {
        let built = try Self.sql(for: query)
        var decoded: [ActivityRow.Decoded] = []
        if let shape = preparedShapes.first(where: { $0.sql == built.sql }) {
            decoded = try await shape.rows(of: built, on: prepared, logger: logger)
        } else {
            for try await row in try await client.query(built, logger: logger) { decoded.append(try ActivityRow.decode(row)) }
        }
        return Self.page(decoded, query)
    }

    /// The same read on `connection`: after a write on it, the read is also the proof that the
    /// write committed (see `PostgresClient.committed`), one round trip instead of two.
    func queryActivities(_ query: ActivityQuery, on connection: PostgresConnection, logger: Logger) async throws -> ActivityPage {
        let built = try Self.sql(for: query)
        var decoded: [ActivityRow.Decoded] = []
        if let shape = preparedShapes.first(where: { $0.sql == built.sql }) {
            decoded = try await shape.rows(of: built, on: connection, logger: logger)
        } else {
            for try await row in try await connection.query(built, logger: logger) { decoded.append(try ActivityRow.decode(row)) }
        }
        return Self.page(decoded, query)
    }

    private static func page(_ rows: [ActivityRow.Decoded], _ query: ActivityQuery) -> ActivityPage {
        var decoded = rows
        let hasMore = decoded.count > query.limit
        if hasMore { decoded.removeLast() }
        if query.cursor?.direction == .newer { decoded.reverse() }

        let activities = decoded.map(\.activity)
        guard let first = decoded.first, let last = decoded.last else {
            return ActivityPage(activities: [], next: nil, prev: nil)
        }
        // Past a cursor, the side we came from always has activities; the far side has them when the page overflowed.
        let moreOlder = query.cursor?.direction == .newer || hasMore && query.cursor?.direction != .newer
        let moreNewer = query.cursor?.direction == .older || hasMore && query.cursor?.direction == .newer
        return ActivityPage(
            activities: activities,
            next: moreOlder ? ActivityCursor(micros: last.micros, id: last.activity.id, direction: .older) : nil,
            prev: moreNewer ? ActivityCursor(micros: first.micros, id: first.activity.id, direction: .newer) : nil
        )
    }

    /// The SELECT for a query. One feed reads the feed index `(feed, created_at, activity_id)` as a
    /// range; otherwise the activities' own newest-first index.
    static func sql(for query: ActivityQuery) throws -> PostgresQuery {
        var bind = SQLBinds()

        // The reader's own reactions and bookmarks: bound first, so every shape numbers it $1.
        let own = try query.ownFieldsOf.map { try bind($0) }
        let viewer = try query.viewer.userID.map { try bind($0) }
        var sql = "SELECT \(ActivityRow.columns(own: own)) FROM "
        let key: (time: String, id: String)
        // A user reads a feed's rows only when they may read the feed: a private timeline's rows
        // are public posts of others, but which ones says whom its owner follows.
        if let feeds = query.feeds, feeds.count == 1 {
            let feed = try bind(feeds[0])
            sql += "activity_feeds f JOIN activities a ON a.id = f.activity_id JOIN users u ON u.id = a.user_id"
            sql += " WHERE f.feed = \(feed)"
            if let viewer {
                sql += " AND EXISTS (SELECT 1 FROM feeds qf WHERE qf.fid = \(feed)"
                sql += " AND \(FeedReadable.predicate(feed: "qf", user: viewer)))"
            }
            key = ("f.created_at", "f.activity_id")
        } else {
            sql += "activities a JOIN users u ON u.id = a.user_id WHERE true"
            if let feeds = query.feeds {
                sql += " AND a.id IN (SELECT qa.activity_id FROM activity_feeds qa"
                if let viewer {
                    sql += " JOIN feeds qf ON qf.fid = qa.feed WHERE qa.feed = ANY(\(try bind(feeds)))"
                    sql += " AND \(FeedReadable.predicate(feed: "qf", user: viewer)))"
                } else {
                    sql += " WHERE qa.feed = ANY(\(try bind(feeds))))"
                }
            }
            key = ("a.created_at", "a.id")
        }
        sql += " AND a.deleted_at IS NULL"
        if let ids = query.ids { sql += " AND a.id = ANY(\(try bind(ids)))" }
        if let viewer { sql += " AND \(ActivityReadable.predicate(activity: "a", user: viewer))" }
        if let userIDs = query.userIDs { sql += " AND a.user_id = ANY(\(try bind(userIDs)))" }
        if let types = query.types { sql += " AND a.type = ANY(\(try bind(types)))" }
        for bound in query.createdAt {
            sql += " AND a.created_at \(bound.comparison) \(try bind.time(bound.date))"
        }
        var order = "DESC"
        if let cursor = query.cursor {
            // Exact microseconds: integer arithmetic, so a cursor never lands beside its activity.
            let time = try bind.time(microseconds: cursor.micros)
            let comparison = cursor.direction == .older ? "<" : ">"
            sql += " AND (\(key.time), \(key.id)) \(comparison) (\(time), \(try bind(cursor.id)))"
            if cursor.direction == .newer { order = "ASC" }
        }
        sql += " ORDER BY \(key.time) \(order), \(key.id) \(order) LIMIT \(try bind(query.limit + 1))"
        return bind.query(sql)
    }
}
