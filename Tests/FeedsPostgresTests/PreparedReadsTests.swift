import FeedsCore
import FeedsTestSupport
import PostgresNIO
import Testing

@testable import FeedsPostgres

/// The reads every feed page makes besides its page run prepared: the texts the page builds are
/// the prepared reads' texts, and the prepared reads find what the planned ones find.
@Suite struct PreparedReadsTests {
    /// The follow lists as GetOrCreateFeed asks for them (`followers_pagination`, `following_pagination`).
    func listed(_ side: String, _ fid: String, limit: Int) throws -> FollowQuery {
        try FollowQuery(
            filter: [side: .string(fid), "status": .string("accepted")], sort: [], limit: limit, next: nil, prev: nil)
    }

    @Test func aFeedPagesReadsHaveThePreparedTexts() throws {
        #expect(
            try PostgresActivityStore.sql(for: listed("target_feed", "user:a", limit: 10), viewer: .server).sql
                == FeedFollowers.sql)
        #expect(
            try PostgresActivityStore.sql(for: listed("source_feed", "timeline:a", limit: 3), viewer: .server).sql
                == FeedFollowing.sql)
        #expect(try PostgresActivityStore.ownFollowsSQL(of: ["user:a", "user:b"], by: "c").sql == OwnFollows.sql)
        #expect(PostgresActivityStore.ownMembershipsSQL(of: ["user:a"], user: "c").sql == OwnMemberships.sql)
        #expect(try PostgresActivityStore.feedsSQL(["user:a", "user:b"], readableBy: "c").sql == ReadableFeeds.sql)
        #expect(try PostgresActivityStore.feedsSQL(["user:a"], readableBy: nil).sql == AnyFeeds.sql)
        // A filter the prepared reads do not cover is another text, planned for its values.
        var paged = try listed("target_feed", "user:a", limit: 10)
        paged.cursor = FollowCursor(ascending: false, micros: 1, source: "timeline:x", target: "user:a")
        #expect(try PostgresActivityStore.sql(for: paged, viewer: .server).sql != FeedFollowers.sql)
    }

    /// A user's feed page and GetActivity (block-aware) and a write's read-back (the whole counts)
    /// each run as a prepared statement: planned on every read, the page ran at half the rate.
    @Test func activityReadsHaveThePreparedTexts() throws {
        var page = ActivityQuery(feeds: ["user:a"], viewer: .user("b"), limit: 25)
        page.leavesOutBlocked = true
        #expect(try PostgresActivityStore.sql(for: page).sql == UserFeedPage.sql)
        var read = ActivityQuery.one("x", viewer: .user("b"), ownFieldsOf: "b")
        #expect(try PostgresActivityStore.sql(for: read).sql == UserActivityWritten.sql)
        read.leavesOutBlocked = true
        #expect(try PostgresActivityStore.sql(for: read).sql == UserActivity.sql)
    }

    @Test func preparedReadsFindWhatPlannedOnesFind() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            let logger = TestDatabase.logger
            for statement in [
                "INSERT INTO users (id) SELECT 'p' || n FROM generate_series(0, 20) n",
                "INSERT INTO feeds (fid, group_id, feed_id, created_by) SELECT 'user:p' || n, 'user', 'p' || n, 'p' || n FROM generate_series(0, 20) n",
                "INSERT INTO feeds (fid, group_id, feed_id, created_by, visibility) SELECT 'timeline:p' || n, 'timeline', 'p' || n, 'p' || n, 'private' FROM generate_series(0, 20) n",
                "UPDATE feeds SET visibility = 'followers' WHERE fid = 'user:p3'",
                "INSERT INTO follows (source_fid, target_fid, status) SELECT 'timeline:p0', 'user:p' || n, 'accepted' FROM generate_series(1, 12) n",
                "INSERT INTO follows (source_fid, target_fid, status) SELECT 'timeline:p' || n, 'user:p1', 'accepted' FROM generate_series(2, 20) n",
                "INSERT INTO feed_members (fid, user_id, role, status) VALUES ('user:p2', 'p0', 'feed_member', 'member')",
            ] { _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            // `client` plans each statement for its values; the store's prepared pool is the same database.
            let store = PostgresActivityStore(client: client, prepared: client)
            let following = try await store.queryFollows(
                try listed("source_feed", "timeline:p0", limit: 5), viewer: .server, logger: logger)
            // One INSERT: one created_at, so the feeds' text order, descending.
            #expect(following.follows.map(\.target.id.description) == ["user:p9", "user:p8", "user:p7", "user:p6", "user:p5"])
            #expect(following.next != nil)
            let followers = try await store.queryFollows(
                try listed("target_feed", "user:p1", limit: 50), viewer: .server, logger: logger)
            #expect(
                Set(followers.follows.map(\.source.id.description)) == Set((0...20).filter { $0 != 1 }.map { "timeline:p\($0)" }))
            let feeds = try await store.feeds(
                try ["user:p1", "user:p3", "user:p4", "timeline:p5"].map { try FeedID($0) }, readableBy: "p0", logger: logger)
            #expect(
                Set(feeds.map(\.id.description)) == ["user:p1", "user:p3", "user:p4"],
                "p0 follows p3's followers-only feed; p5's timeline is private")
            let strangers = try await store.feeds([try FeedID("user:p3")], readableBy: "p20", logger: logger)
            #expect(strangers.isEmpty)
            let own = try await store.ownData(
                of: feeds + [try #require(try await store.feeds([try FeedID("user:p2")], readableBy: nil, logger: logger).first)],
                for: "p0", followings: false, logger: logger)
            #expect(own[try FeedID("user:p1")]?.follows.map(\.source.id.description) == ["timeline:p0"])
            #expect(own[try FeedID("user:p2")]?.membership?.user.id == "p0")
            #expect(own[try FeedID("user:p4")]?.membership == nil)
        }
    }
}
