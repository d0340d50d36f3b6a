import FeedsCore
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

/// Follows and the timelines they fill, through the real server: copies arrive after the post's
/// commit (fan-out workers), so the tests wait for them with a hang guard, never a deadline.
@Suite struct FollowTests {
    @Test func aFollowFillsTheTimelineAndAnUnfollowEmptiesIt() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:bob", owner: "bob")
            try await server.createFeed("timeline:alice", owner: "alice")
            let early = try await server.addActivity(as: "bob", text: "before")["id"].string

            let reply = try await server.follow("timeline:alice", "user:bob", as: "alice")
            #expect(reply.status == 201, "\(reply.text)")
            let follow = reply.body["follow"]
            #expect(follow["status"].string == "accepted")
            #expect(follow["target_feed"]["follower_count"].int == 1)
            #expect(follow["source_feed"]["following_count"].int == 1)
            #expect(follow["created_at"].int != nil)
            // The backfill is done before the reply.
            #expect(try await server.timeline("timeline:alice", as: "alice") == [early].compactMap { $0 })

            // Following again is the same follow, not an error, and counts once.
            let again = try await server.follow("timeline:alice", "user:bob", as: "alice")
            #expect(again.status == 201 && again.body["follow"]["target_feed"]["follower_count"].int == 1, "\(again.text)")

            let later = try #require(try await server.addActivity(as: "bob", text: "after")["id"].string)
            try await eventually("the post copied to the timeline") {
                try await server.timeline("timeline:alice", as: "alice").first == later
            }
            // Private activities stay where they were posted.
            let hidden = try await server.addActivity(as: "bob", text: "mine", extra: #""visibility":"private""#)["id"].string
            let feed = try await server.api(.POST, "/feeds/feed_groups/user/feeds/bob", as: "alice", json: "{}")
            #expect(feed.body["feed"]["follower_count"].int == 1)
            #expect(feed.body["followers"].array.first?["source_feed"]["feed"].string == "timeline:alice")

            let gone = try await server.api(.DELETE, "/feeds/follows/timeline:alice/user:bob", as: "alice")
            #expect(gone.status == 200, "\(gone.text)")
            #expect(gone.body["follow"]["target_feed"]["follower_count"].int == 0)
            #expect(try await server.timeline("timeline:alice", as: "alice").isEmpty)
            _ = try await server.addActivity(as: "bob", text: "unseen")
            try await server.waitForFanout()
            #expect(try await server.timeline("timeline:alice", as: "alice").isEmpty)
            #expect(try await server.number("SELECT count(*)::int FROM activity_feeds WHERE activity_id = \(hidden ?? "")") == 1)
            expectAPIError(
                try await server.api(.DELETE, "/feeds/follows/timeline:alice/user:bob", as: "alice"), status: 404, code: 16)
        }
    }

    @Test func theCopyLimitBoundsTheBackfillAndDeletedActivitiesLeave() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:bob", owner: "bob")
            try await server.createFeed("timeline:alice", owner: "alice")
            var posted: [String] = []
            for index in 0..<5 {
                posted.append(try #require(try await server.addActivity(as: "bob", text: "p\(index)")["id"].string))
            }
            #expect(
                try await server.follow("timeline:alice", "user:bob", as: "alice", extra: #""activity_copy_limit":2"#).status
                    == 201)
            #expect(try await server.timeline("timeline:alice", as: "alice") == [posted[4], posted[3]])

            #expect(try await server.api(.DELETE, "/feeds/activities/\(posted[4])", as: "bob").status == 200)
            #expect(try await server.timeline("timeline:alice", as: "alice") == [posted[3]])
            expectAPIError(
                try await server.follow("timeline:carol", "user:bob", as: "carol", extra: #""activity_copy_limit":1001"#),
                status: 400, code: 4)
        }
    }

    @Test func followersOnlyFeedsTakeRequestsAndPrivateOnesRefuse() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:bob", owner: "bob", visibility: "followers")
            try await server.createFeed("user:dan", owner: "dan", visibility: "private")
            try await server.createFeed("timeline:alice", owner: "alice")
            let secret = try #require(try await server.addActivity(as: "bob", text: "for followers")["id"].string)

            // Not a follower yet: bob's feed is closed to alice, and her follow waits.
            expectAPIError(
                try await server.api(.POST, "/feeds/feed_groups/user/feeds/bob", as: "alice", json: "{}"), status: 403, code: 17)
            let request = try await server.follow("timeline:alice", "user:bob", as: "alice")
            #expect(request.body["follow"]["status"].string == "pending", "\(request.text)")
            #expect(request.body["follow"]["target_feed"]["follower_count"].int == 0)
            #expect(try await server.timeline("timeline:alice", as: "alice").isEmpty)

            // Only bob (or the server) answers.
            let pair = #"{"source":"timeline:alice","target":"user:bob"}"#
            expectAPIError(try await server.api(.POST, "/feeds/follows/accept", as: "alice", json: pair), status: 403, code: 17)
            let accepted = try await server.api(.POST, "/feeds/follows/accept", as: "bob", json: pair)
            #expect(accepted.status == 201 && accepted.body["follow"]["status"].string == "accepted", "\(accepted.text)")
            #expect(accepted.body["follow"]["request_accepted_at"].int != nil)
            #expect(try await server.timeline("timeline:alice", as: "alice") == [secret])
            #expect(try await server.api(.POST, "/feeds/feed_groups/user/feeds/bob", as: "alice", json: "{}").status == 201)
            expectAPIError(try await server.api(.POST, "/feeds/follows/accept", as: "bob", json: pair), status: 404, code: 16)

            // A request rejected stays, marked so, and copies nothing.
            try await server.createFeed("timeline:erin", owner: "erin")
            _ = try await server.follow("timeline:erin", "user:bob", as: "erin")
            let erin = #"{"source":"timeline:erin","target":"user:bob"}"#
            let rejected = try await server.api(.POST, "/feeds/follows/reject", as: "bob", json: erin)
            #expect(rejected.body["follow"]["status"].string == "rejected", "\(rejected.text)")
            #expect(try await server.timeline("timeline:erin", as: "erin").isEmpty)

            // A private feed: only its owner follows it, only its owner reads it.
            expectAPIError(try await server.follow("timeline:alice", "user:dan", as: "alice"), status: 403, code: 17)
            expectAPIError(
                try await server.api(.POST, "/feeds/feed_groups/user/feeds/dan", as: "alice", json: "{}"), status: 403, code: 17)
            // Timelines are private unless created otherwise.
            expectAPIError(
                try await server.api(.POST, "/feeds/feed_groups/timeline/feeds/alice", as: "bob", json: "{}"), status: 403,
                code: 17)
        }
    }

    @Test func onlyTheOwnerOrTheServerActsOnAFeedsFollows() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:bob", owner: "bob")
            try await server.createFeed("timeline:alice", owner: "alice")
            expectAPIError(try await server.follow("timeline:alice", "user:bob", as: "mallory"), status: 403, code: 17)
            #expect(try await server.follow("timeline:alice", "user:bob", as: nil).status == 201)
            expectAPIError(
                try await server.api(.DELETE, "/feeds/follows/timeline:alice/user:bob", as: "mallory"), status: 403, code: 17)
            // The followed feed's owner may remove a follower; the server may end any follow.
            #expect(try await server.api(.DELETE, "/feeds/follows/timeline:alice/user:bob", as: "bob").status == 200)
            #expect(try await server.follow("timeline:alice", "user:bob", as: nil).status == 201)
            #expect(try await server.api(.DELETE, "/feeds/follows/timeline%3Aalice/user%3Abob", as: nil).status == 200)
        }
    }

    /// Stream's docs follow from `timeline:<me>` without reading it first: the follow makes it,
    /// for its owner, as GetOrCreateFeed would. Someone else's feed, or a custom group's, is not made.
    @Test func aFollowFromOnesOwnTimelineNeverReadMakesIt() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:bob", owner: "bob")
            let made = try await server.follow("timeline:alice", "user:bob", as: "alice")
            #expect(made.status == 201, "\(made.text)")
            #expect(made.body["follow"]["source_feed"]["created_by"]["id"].string == "alice", "\(made.text)")
            #expect(made.body["follow"]["source_feed"]["visibility"].string == "private", "timeline's default")
            #expect(made.body["follow"]["status"].string == "accepted")

            // Not another user's feed, nor a feed of a custom group.
            expectAPIError(try await server.follow("timeline:carl", "user:bob", as: "alice"), status: 404, code: 16)
            try await server.createFeedGroups("club")
            expectAPIError(try await server.follow("club:alice", "user:bob", as: "alice"), status: 404, code: 16)
            #expect(try await server.number("SELECT count(*)::int FROM feeds WHERE fid IN ('timeline:carl', 'club:alice')") == 0)

            // The server may follow from any user's built-in feed; it is that user's.
            let batch = try await server.api(
                .POST, "/feeds/follows/batch", as: nil,
                json:
                    #"{"follows":[{"source":"timeline:dora","target":"user:bob"},{"source":"timeline:erin","target":"user:bob"}]}"#
            )
            #expect(batch.status == 201 && batch.body["created"].array.count == 2, "\(batch.text)")
            #expect(try await server.number("SELECT count(*)::int FROM feeds WHERE created_by IN ('dora', 'erin')") == 2)
            // A batch that fails makes nothing.
            let failing = try await server.api(
                .POST, "/feeds/follows/batch", as: nil,
                json:
                    #"{"follows":[{"source":"timeline:fay","target":"user:bob"},{"source":"timeline:fay","target":"user:ghost"}]}"#
            )
            expectAPIError(failing, status: 404, code: 16)
            #expect(try await server.number("SELECT count(*)::int FROM feeds WHERE fid = 'timeline:fay'") == 0)
        }
    }

    @Test func badFollowsAreRefusedWithTheFieldAtFault() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:bob", owner: "bob")
            try await server.createFeed("timeline:alice", owner: "alice")
            expectAPIError(
                try await server.follow("timeline:alice", "timeline:alice", as: "alice"), status: 400, code: 4, field: "target")
            expectAPIError(
                try await server.follow("nosuch:alice", "user:bob", as: "alice"), status: 400, code: 4, field: "source")
            expectAPIError(try await server.follow("timeline:alice", "user:nobody", as: "alice"), status: 404, code: 16)
            expectAPIError(try await server.follow("timeline:alice", "user:bob:x", as: "alice"), status: 400, code: 4)
            expectAPIError(
                try await server.api(.POST, "/feeds/follows", as: "alice", json: #"{"source":"timeline:alice"}"#), status: 400,
                code: 4)
            let huge = String(repeating: "a", count: 300)
            expectAPIError(try await server.follow("timeline:alice", "user:\(huge)", as: "alice"), status: 400, code: 4)

            // Batches: 1 to 1,000, all or nothing.
            let many = (0...1000).map { #"{"source":"timeline:alice","target":"user:u\#($0)"}"# }.joined(separator: ",")
            expectAPIError(
                try await server.api(.POST, "/feeds/follows/batch", as: nil, json: #"{"follows":[\#(many)]}"#), status: 400,
                code: 4)
            expectAPIError(
                try await server.api(.POST, "/feeds/follows/batch", as: nil, json: #"{"follows":[]}"#), status: 400, code: 4)
            let mixed =
                #"{"follows":[{"source":"timeline:alice","target":"user:bob"},{"source":"timeline:alice","target":"user:ghost"}]}"#
            expectAPIError(try await server.api(.POST, "/feeds/follows/batch", as: "alice", json: mixed), status: 404, code: 16)
            #expect(try await server.number("SELECT count(*)::int FROM follows") == 0)

            let pair =
                #"{"follows":[{"source":"timeline:alice","target":"user:bob"},{"source":"timeline:alice","target":"user:bob"}]}"#
            let batch = try await server.api(.POST, "/feeds/follows/batch", as: "alice", json: pair)
            #expect(
                batch.status == 201 && batch.body["created"].array.count == 1 && batch.body["follows"].array.count == 2,
                "\(batch.text)")
            #expect(try await server.number("SELECT follower_count FROM feeds WHERE fid = 'user:bob'") == 1)
        }
    }

    @Test func queryFollowsFiltersAndPagesExactly() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:bob", owner: "bob")
            for index in 0..<7 {
                try await server.createFeed("timeline:f\(index)", owner: "f\(index)")
                #expect(try await server.follow("timeline:f\(index)", "user:bob", as: "f\(index)").status == 201)
            }
            var seen: [String] = []
            var next: String?
            repeat {
                let cursor = next.map { #","next":"\#($0)""# } ?? ""
                let page = try await server.api(
                    .POST, "/feeds/follows/query", as: "alice",
                    json: #"{"filter":{"target_feed":"user:bob"},"limit":3\#(cursor)}"#)
                #expect(page.status == 201, "\(page.text)")
                seen += page.body["follows"].array.compactMap { $0["source_feed"]["feed"].string }
                next = page.body["next"].string
            } while next != nil
            #expect(seen == (0..<7).reversed().map { "timeline:f\($0)" })
            expectAPIError(
                try await server.api(.POST, "/feeds/follows/query", as: "alice", json: #"{"filter":{"color":"red"}}"#),
                status: 400, code: 4)
            expectAPIError(
                try await server.api(.POST, "/feeds/follows/query", as: "alice", json: #"{"next":"bm90IGEgY3Vyc29y"}"#),
                status: 400, code: 4)
            let followers = try await server.api(
                .POST, "/feeds/feed_groups/user/feeds/bob", as: "bob", json: #"{"followers_pagination":{"limit":2}}"#)
            #expect(followers.body["followers"].array.count == 2 && followers.body["followers_pagination"]["next"].string != nil)
        }
    }

    @Test func timelinePagesNeitherRepeatNorSkipWhilePostsArrive() async throws {
        try await TestServer.run { server in
            try await server.createFeed("timeline:alice", owner: "alice")
            var expected: [String] = []
            for author in ["bob", "carl"] {
                try await server.createFeed("user:\(author)", owner: author)
                #expect(try await server.follow("timeline:alice", "user:\(author)", as: "alice").status == 201)
            }
            for index in 0..<30 {
                expected.append(
                    try #require(
                        try await server.addActivity(as: index % 2 == 0 ? "bob" : "carl", text: "t\(index)")["id"].string))
            }
            try await server.waitForFanout()
            // Page through while new posts arrive: the pages hold exactly what was there when the first was read.
            var seen: [String] = []
            var next: String?
            var posting = 0
            repeat {
                let cursor = next.map { #","next":"\#($0)""# } ?? ""
                let page = try await server.api(
                    .POST, "/feeds/feed_groups/timeline/feeds/alice", as: "alice", json: #"{"limit":7\#(cursor)}"#)
                let ids = page.body["activities"].array.compactMap { $0["id"].string }
                if next == nil { #expect(ids.first == expected.last) }
                seen += ids
                next = page.body["next"].string
                posting += 1
                _ = try await server.addActivity(as: "bob", text: "meanwhile \(posting)")
            } while next != nil
            #expect(seen == expected.reversed())
        }
    }

    /// Posts racing the follows of their feeds: whichever commits first, every post ends up in the
    /// timeline once (the post's count and the follow's count update lock the same feed row, so
    /// the post either queues its fan-out or is there for the follow's backfill).
    @Test func postsRacingFollowsAllReachTheTimeline() async throws {
        try await TestServer.run { server in
            try await server.createFeed("timeline:alice", owner: "alice")
            let authors = (0..<24).map { "racer\($0)" }
            for author in authors { try await server.createFeed("user:\(author)", owner: author) }
            let posted = try await withThrowingTaskGroup(of: String?.self) { group in
                for author in authors {
                    group.addTask { try await server.addActivity(as: author, text: "race")["id"].string }
                    group.addTask {
                        let reply = try await server.follow("timeline:alice", "user:\(author)", as: "alice")
                        #expect(reply.status == 201, "\(reply.text)")
                        return nil
                    }
                }
                return try await group.reduce(into: [String]()) { if let id = $1 { $0.append(id) } }
            }
            #expect(posted.count == authors.count)
            try await server.waitForFanout()
            let timeline = try await server.timeline("timeline:alice", as: "alice")
            #expect(timeline.count == posted.count && Set(timeline) == Set(posted))
        }
    }

    /// A post by a feed with 12,000 followers reaches every one, chunk by chunk, once.
    @Test func aPostReachesEveryOneOfManyFollowers() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:star", owner: "star")
            for statement in FanoutFixture.fans(12000, of: "user:star") {
                try await server.database.query(PostgresQuery(unsafeSQL: statement), logger: TestDatabase.logger)
            }
            _ = try await server.addActivity(as: "star", text: "hello fans")
            try await eventually("every fan's timeline holding the post") {
                try await server.number("SELECT count(*)::int FROM activity_feeds WHERE via = 'user:star'") == 12000
            }
            try await server.waitForFanout()
            #expect(
                try await server.number("SELECT count(DISTINCT feed)::int FROM activity_feeds WHERE via = 'user:star'") == 12000)
        }
    }

    /// One FollowBatch of 1,000 follows copying 1,000 each once ran a minutes-long transaction of a
    /// million rows. A batch copies at most `FollowInput.maxCopiesPerRequest` in all (the limits
    /// lowered alike), and one larger than `FollowInput.copiedBeforeAnswer` leaves its copies to
    /// the fan-out workers instead of its own request.
    @Test func aLargeFollowBatchIsBoundedAndCopiedByTheWorkers() async throws {
        try await TestServer.run { server in
            let count = 200
            for statement in [
                "INSERT INTO users (id) SELECT 'author' || n FROM generate_series(1, \(count)) n",
                """
                INSERT INTO feeds (fid, group_id, feed_id, created_by) SELECT 'user:author' || n, 'user', 'author' || n,
                    'author' || n FROM generate_series(1, \(count)) n
                """,
                """
                INSERT INTO activities (id, type, user_id, feeds) SELECT 'post' || n, 'post', 'author' || n,
                    ARRAY['user:author' || n] FROM generate_series(1, \(count)) n
                """,
                "INSERT INTO activity_feeds (feed, created_at, activity_id) SELECT feeds[1], created_at, id FROM activities",
            ] {
                _ = try await server.database.query(PostgresQuery(unsafeSQL: statement), logger: TestDatabase.logger)
            }
            try await server.createFeed("timeline:reader", owner: "reader")
            let follows = (1...count).map { #"{"source":"timeline:reader","target":"user:author\#($0)"}"# }
            let batch = try await server.api(
                .POST, "/feeds/follows/batch", as: nil, json: #"{"follows":[\#(follows.joined(separator: ","))]}"#)
            #expect(batch.status == 201 && batch.body["created"].array.count == count, "\(batch.text)")
            let limit = FollowInput.maxCopiesPerRequest / count
            #expect(try await server.number("SELECT count(*)::int FROM follows WHERE copy_limit = \(limit)") == count)
            try await eventually("the workers' copies in the reader's timeline") {
                try await server.number("SELECT count(*)::int FROM activity_feeds WHERE feed = 'timeline:reader'") == count
            }
            // A single follow still answers with its copies made.
            try await server.createFeed("timeline:single", owner: "single")
            #expect(try await server.follow("timeline:single", "user:author1", as: "single").status == 201)
            #expect(try await server.number("SELECT count(*)::int FROM activity_feeds WHERE feed = 'timeline:single'") == 1)
        }
    }

    /// Unfollows raced the fan-out: timelines that had unfollowed at the end still held posts.
    /// Posts while followers come and go; at the end every timeline holds every post exactly
    /// when it follows the author, and none otherwise.
    @Test func followChurnDuringPostsLeavesEveryTimelineAsItsFollowSays() async throws {
        try await TestServer.run { server in
            for statement in [
                "INSERT INTO users (id) VALUES ('star')",
                "INSERT INTO feeds (fid, group_id, feed_id, created_by) VALUES ('user:star', 'user', 'star', 'star')",
            ]
                + FanoutFixture.fans(200, of: "user:star")
            {
                _ = try await server.database.query(PostgresQuery(unsafeSQL: statement), logger: TestDatabase.logger)
            }
            let posts = 20
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for index in 0..<posts { try await server.addActivity(as: "star", text: "post \(index)") }
                }
                for fan in 1...16 {
                    group.addTask {
                        for _ in 0..<6 {
                            _ = try await server.api(.DELETE, "/feeds/follows/timeline:fan\(fan)/user:star", as: "fan\(fan)")
                            _ = try await server.follow("timeline:fan\(fan)", "user:star", as: "fan\(fan)")
                        }
                        if fan.isMultiple(of: 2) {
                            _ = try await server.api(.DELETE, "/feeds/follows/timeline:fan\(fan)/user:star", as: "fan\(fan)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await server.waitForFanout()
            #expect(try await server.timelinesDisagreeing(about: "user:star", posts: posts) == 0)
            #expect(try await server.number("SELECT count(*)::int FROM follows WHERE target_fid = 'user:star'") == 200 - 8)
        }
    }
}

extension TestServer {
    /// The timelines whose copies of `target`'s posts disagree with the follow table: all `posts`
    /// while they follow it, none while they do not.
    func timelinesDisagreeing(about target: String, posts: Int) async throws -> Int {
        try await number(
            """
            SELECT count(*)::int FROM (
                SELECT EXISTS (SELECT 1 FROM follows w WHERE w.source_fid = t.fid AND w.target_fid = \(target)
                               AND w.status = 'accepted') AS follows,
                       (SELECT count(*) FROM activity_feeds af WHERE af.feed = t.fid AND af.via = \(target)) AS copies
                FROM feeds t WHERE t.group_id = 'timeline') x
            WHERE (follows AND copies <> \(posts)) OR (NOT follows AND copies <> 0)
            """)
    }

    /// Waits until no fan-out job is waiting (a hang guard, not a deadline).
    func waitForFanout() async throws {
        try await eventually("the fan-out queue to drain") {
            try await number("SELECT count(*)::int FROM fanout_jobs WHERE failed_at IS NULL") == 0
        }
    }
}
