import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// QueryFeeds, OwnBatch's feed lookup and QueryUsers: the reads that list feeds and users
/// rather than activities.
extension PostgresActivityStore {
    public func queryFeeds(_ query: FeedQuery, logger: Logger) async throws -> FeedPage {
        var feeds: [(micros: Int64, feed: Feed)] = []
        for try await row in try await reads.query(try Self.sql(for: query), logger: logger) {
            var columns = RowReader(row)
            let micros: Int64 = try columns.next()
            feeds.append((micros, try FeedRow.feed(&columns)))
        }
        let forward = query.cursor?.forward ?? true
        let hasMore = feeds.count > query.limit
        if hasMore { feeds.removeLast() }
        if !forward { feeds.reverse() }
        guard let first = feeds.first, let last = feeds.last else { return FeedPage(feeds: [], next: nil, prev: nil) }
        // Past a cursor, the side we came from always has feeds; the far side has them when the page overflowed.
        let moreAfter = !forward || hasMore
        let moreBefore = query.cursor != nil && (forward || hasMore)
        func cursor(_ edge: (micros: Int64, feed: Feed), forward: Bool) -> FeedCursor {
            FeedCursor(
                forward: forward, sort: query.sort, ascending: query.ascending, micros: edge.micros,
                fid: edge.feed.id.description)
        }
        return FeedPage(
            feeds: feeds.map(\.feed),
            next: moreAfter ? cursor(last, forward: true) : nil,
            prev: moreBefore ? cursor(first, forward: false) : nil)
    }

    /// The SELECT for a feed query: the sort time in exact microseconds first, then a feed row.
    static func sql(for query: FeedQuery) throws -> PostgresQuery {
        var bind = SQLBinds()
        let time = "f.\(query.sort.rawValue)"
        var sql = "SELECT (extract(epoch FROM \(time)) * 1000000)::int8, \(FeedRow.columns) \(FeedRow.from) WHERE true"
        if let fids = query.fids { sql += " AND f.fid = ANY(\(try bind(fids)))" }
        if let groups = query.groupIDs { sql += " AND f.group_id = ANY(\(try bind(groups)))" }
        if let ids = query.ids { sql += " AND f.feed_id = ANY(\(try bind(ids)))" }
        if let creators = query.createdByIDs { sql += " AND f.created_by = ANY(\(try bind(creators)))" }
        if let user = query.readableBy { sql += " AND \(FeedReadable.predicate(feed: "f", user: try bind(user)))" }
        for bound in query.createdAt {
            sql += " AND f.created_at \(bound.comparison) \(try bind.time(bound.date))"
        }
        // Reading backwards (`prev`) walks the order reversed, and the page is turned around after.
        let forward = query.cursor?.forward ?? true
        let ascending = query.ascending == forward
        if let cursor = query.cursor {
            let edge = try bind.time(microseconds: cursor.micros)
            sql += " AND (\(time), f.fid) \(ascending ? ">" : "<") (\(edge), \(try bind(cursor.fid)))"
        }
        let order = ascending ? "ASC" : "DESC"
        sql += " ORDER BY \(time) \(order), f.fid \(order) LIMIT \(try bind(query.limit + 1))"
        return bind.query(sql)
    }

    public func feeds(_ ids: [FeedID], readableBy user: String?, logger: Logger) async throws -> [Feed] {
        let query = try Self.feedsSQL(ids.map(\.description), readableBy: user)
        var feeds: [Feed] = []
        for row in try await rows(of: query, preparedAs: [ReadableFeeds.self, AnyFeeds.self], logger: logger) {
            var columns = RowReader(row)
            feeds.append(try FeedRow.feed(&columns))
        }
        return feeds
    }

    /// The feeds of `fids` that `user` may read (nil: the server, all of them).
    static func feedsSQL(_ fids: [String], readableBy user: String?) throws -> PostgresQuery {
        var bind = SQLBinds()
        var sql = "SELECT \(FeedRow.columns) \(FeedRow.from) WHERE f.fid = ANY(\(try bind(fids)))"
        if let user { sql += " AND \(FeedReadable.predicate(feed: "f", user: try bind(user)))" }
        return bind.query(sql)
    }

    public func queryUsers(_ query: UserQuery, logger: Logger) async throws -> [User] {
        try await UserRow.users(try await reads.query(try Self.sql(for: query), logger: logger))
    }

    /// The SELECT for a user query.
    static func sql(for query: UserQuery) throws -> PostgresQuery {
        var bind = SQLBinds()
        var sql = "SELECT \(UserRow.columns) FROM users WHERE true"
        if let ids = query.ids { sql += " AND id = ANY(\(try bind(ids)))" }
        if let prefix = query.idPrefix {
            // The first `UserQuery.autocompleteCandidates` ids starting with the text, a range of
            // `users_id_prefix_idx` (migration 0017).
            sql += " AND id IN (SELECT id FROM users WHERE id COLLATE \"C\" LIKE \(try bind(likeEscaped(prefix))) || '%'"
            sql += " ORDER BY id COLLATE \"C\" LIMIT \(UserQuery.autocompleteCandidates))"
        }
        if let names = query.names { sql += " AND name = ANY(\(try bind(names)))" }
        if let prefix = query.nameWordPrefix {
            // Candidates first, by an index range: users with a word starting with the text's first
            // word (migration 0017), at most `UserQuery.autocompleteCandidates` of them, so that a
            // one-letter text costs the same on a million users as on a thousand. Then the rule
            // itself: a word of the name starts with the text, at the start or after a space.
            let lowered = prefix.lowercased()
            if let first = lowered.split(separator: " ").first, lowered.first != " " {
                let word = try bind(likeEscaped(String(first)))
                sql += " AND id IN (SELECT user_id FROM user_name_words WHERE word COLLATE \"C\" LIKE \(word) || '%'"
                sql += " ORDER BY word COLLATE \"C\", user_id LIMIT \(UserQuery.autocompleteCandidates))"
            }
            let pattern = try bind(likeEscaped(lowered))
            sql += " AND (lower(name) LIKE \(pattern) || '%' OR lower(name) LIKE '% ' || \(pattern) || '%')"
        }
        if let roles = query.roles { sql += " AND role = ANY(\(try bind(roles)))" }
        for (column, bounds) in [("created_at", query.createdAt), ("updated_at", query.updatedAt)] {
            for bound in bounds {
                sql += " AND \(column) \(bound.comparison) \(try bind.time(bound.date))"
            }
        }
        let order = query.sort.map { "\($0.field.rawValue) \($0.ascending ? "ASC" : "DESC") NULLS LAST" }
        sql += " ORDER BY \((order + ["id ASC"]).joined(separator: ", "))"
        sql += " LIMIT \(try bind(query.limit)) OFFSET \(try bind(query.offset))"
        return bind.query(sql)
    }

    /// `text` matched literally by LIKE: its `%`, `_` and `\` escaped.
    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

/// `feedsSQL` for a user, prepared: every page finds its activities' feeds with it.
enum ReadableFeeds: PreparedRead {
    static let name = "ReadableFeeds"
    static let sql = try! PostgresActivityStore.feedsSQL(["-"], readableBy: "-").sql  // a fixed, valid sample
}

/// `feedsSQL` for the server, prepared.
enum AnyFeeds: PreparedRead {
    static let name = "AnyFeeds"
    static let sql = try! PostgresActivityStore.feedsSQL(["-"], readableBy: nil).sql
}
