import FeedsCore
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

@testable import FeedsPostgres

/// Every query a client can shape has a bounded cost on a million rows: its plan, as PostgreSQL
/// runs it on generated data, reads no table whole and no node of it handles more than a tenth
/// of the rows, whatever the filter (1,000 feeds, a rare type, many users, a name's prefix).
@Suite struct QueryCostTests {
    static let rows = 1_000_000
    static let bound = rows / 10

    /// 1,000 users with a feed each; a million activities spread over them, one in 10,000 of the
    /// type `rare`; the feed rows; a million users named `First Last<n>` besides.
    static let data = [
        "ALTER TABLE activity_feeds DISABLE TRIGGER ALL",
        "ALTER TABLE activities DISABLE TRIGGER ALL",
        "INSERT INTO users (id, name) SELECT 'u' || n, 'Writer ' || n FROM generate_series(1, 1000) n",
        """
        INSERT INTO feeds (fid, group_id, feed_id, created_by) SELECT 'user:u' || n, 'user', 'u' || n, 'u' || n
        FROM generate_series(1, 1000) n
        """,
        """
        INSERT INTO activities (id, type, user_id, feeds, created_at)
        SELECT 'a' || n, CASE WHEN n % 10000 = 0 THEN 'rare' ELSE 'post' END, 'u' || (n % 1000 + 1),
            ARRAY['user:u' || (n % 1000 + 1)], timestamptz '2026-01-01' - n * interval '1 second'
        FROM generate_series(1, \(rows)) n
        """,
        "INSERT INTO activity_feeds (feed, created_at, activity_id) SELECT feeds[1], created_at, id FROM activities",
        """
        INSERT INTO users (id, name) SELECT 'p' || n, (ARRAY['Ann','Bob','Cy','Dee'])[n % 4 + 1] || ' Last' || n
        FROM generate_series(1, \(rows)) n
        """,
        "ALTER TABLE activity_feeds ENABLE TRIGGER ALL",
        "ALTER TABLE activities ENABLE TRIGGER ALL",
        "ANALYZE",
    ]

    @Test func clientShapedQueriesStayBoundedOnAMillionRows() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            let logger = TestDatabase.logger
            for statement in Self.data { _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger) }

            let allFeeds = (1...1000).map { "user:u\($0)" }
            var shapes: [(String, ActivityQuery)] = [
                ("1,000 feeds", ActivityQuery(feeds: allFeeds, viewer: .user("u1"))),
                ("1,000 feeds, a rare type", ActivityQuery(feeds: allFeeds, types: ["rare"], viewer: .user("u1"))),
                ("a rare type", ActivityQuery(types: ["rare"], viewer: .user("u1"))),
                ("two types", ActivityQuery(types: ["rare", "nothing"], viewer: .server)),
                ("1,000 users", ActivityQuery(userIDs: (1...1000).map { "u\($0)" }, viewer: .user("u1"))),
                ("one user", ActivityQuery(userIDs: ["u7"], viewer: .user("u1"))),
            ]
            var paged = ActivityQuery(feeds: allFeeds, viewer: .user("u1"))
            paged.cursor = ActivityCursor(micros: 1_766_620_800_000_000, id: "a500000", direction: .older)
            shapes.append(("1,000 feeds, a later page", paged))
            for (name, query) in shapes {
                let built = try PostgresActivityStore.sql(for: query)
                try await expectBounded(name, built, client)
                // And the page is right: newest first, as many as asked.
                var count = 0
                for try await _ in try await client.query(built, logger: logger) { count += 1 }
                #expect(count == (name.contains("rare") || name == "two types" ? 26 : ActivityQuery.defaultLimit + 1), "\(name)")
            }
            for prefix in ["ann", "ann last1", "zz", "a"] {
                var query = UserQuery()
                query.nameWordPrefix = prefix
                try await expectBounded("users named \(prefix)…", try PostgresActivityStore.sql(for: query), client)
            }
            for prefix in ["p1", "zz", "p"] {
                var query = UserQuery()
                query.idPrefix = prefix
                try await expectBounded("user ids \(prefix)…", try PostgresActivityStore.sql(for: query), client)
            }
        }
    }

    /// A reader's `own_follows` and `own_followings` of a feed with 100,000 followers: found from
    /// the reader's own feeds, never by walking the followers; and a reader following 5,000 feeds
    /// finds their follows of a listed few without walking their own.
    @Test func ownFollowsOfAFeedWithManyFollowersStayBounded() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            let logger = TestDatabase.logger
            for statement in [
                "INSERT INTO users (id) SELECT 'f' || n FROM generate_series(0, 100000) n",
                "INSERT INTO feeds (fid, group_id, feed_id, created_by) SELECT 'timeline:f' || n, 'timeline', 'f' || n, 'f' || n FROM generate_series(0, 100000) n",
                "INSERT INTO feeds (fid, group_id, feed_id, created_by) VALUES ('user:f0', 'user', 'f0', 'f0'), ('user:f7', 'user', 'f7', 'f7')",
                "INSERT INTO follows (source_fid, target_fid, status) SELECT 'timeline:f' || n, 'user:f0', 'accepted' FROM generate_series(1, 100000) n",
                "INSERT INTO follows (source_fid, target_fid, status) VALUES ('timeline:f0', 'user:f7', 'accepted')",
                "INSERT INTO follows (source_fid, target_fid, status) SELECT 'timeline:f7', 'timeline:f' || n, 'accepted' FROM generate_series(10, 5009) n",
                "ANALYZE",
            ] { _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            let star = try #require(
                try await PostgresActivityStore(client: client, prepared: client).feeds(
                    [try FeedID("user:f0")], readableBy: nil, logger: logger
                ).first)
            let follows = try PostgresActivityStore.ownFollowsSQL(of: ["user:f0"], by: "f7")
            try await expectBounded("own_follows of a feed with 100,000 followers", follows, client, bound: 1_000)
            let followings = try PostgresActivityStore.ownFollowingsSQL(of: [star], by: "f7")
            try await expectBounded("own_followings of its owner", followings, client, bound: 1_000)
            var found = 0
            for try await _ in try await client.query(follows, logger: logger) { found += 1 }
            #expect(found == 1, "f7's one follow of user:f0")
            let listed = try PostgresActivityStore.ownFollowsSQL(of: (0..<12).map { "timeline:f\($0)" }, by: "f7")
            try await expectBounded("own_follows of 12 feeds by a reader following 5,000", listed, client, bound: 100)
            found = 0
            for try await _ in try await client.query(listed, logger: logger) { found += 1 }
            #expect(found == 2, "f7 follows timeline:f10 and timeline:f11 of the twelve")
        }
    }

    /// The plan of `query` as run: no sequential scan of a big table, and no node handling more
    /// than `bound` rows over all its loops.
    func expectBounded(_ name: String, _ query: PostgresQuery, _ client: PostgresClient, bound: Int = bound) async throws {
        let explain = PostgresQuery(unsafeSQL: "EXPLAIN (ANALYZE, FORMAT JSON) " + query.sql, binds: query.binds)
        var text = ""
        for try await plan in try await client.query(explain, logger: TestDatabase.logger).decode(String.self) { text += plan }
        let json = try JSONValue(parsing: text)
        var nodes: [JSONValue] = []
        func walk(_ node: JSONValue) {
            nodes.append(node)
            for child in node["Plans"].array { walk(child) }
        }
        walk(json[0]["Plan"])
        let outline = nodes.map {
            "\($0["Node Type"].string ?? "?") \($0["Relation Name"].string ?? $0["Index Name"].string ?? "")"
        }
        .joined(separator: " > ")
        for node in nodes {
            let relation = node["Relation Name"].string ?? ""
            #expect(
                !(node["Node Type"].string == "Seq Scan" && ["activities", "activity_feeds", "users"].contains(relation)),
                "\(name): a sequential scan of \(relation) in \(outline)")
            // The rows a node passed on and those its filter dropped, over all its loops.
            let handled =
                ((node["Actual Rows"].int ?? 0) + (node["Rows Removed by Filter"].int ?? 0))
                * max(1, node["Actual Loops"].int ?? 1)
            #expect(
                handled <= bound,
                "\(name): \(node["Node Type"].string ?? "?") on \(relation) handled \(handled) rows in \(outline)")
        }
    }
}
