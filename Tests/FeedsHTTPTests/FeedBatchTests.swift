import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// The feed and follow calls apps make at sign-up and on their home page: CreateFeedsBatch (the
/// React Native composer's hashtag feeds), OwnCapabilitiesBatch (the Swift SDK), GetOrCreateFollows
/// (react-demo's sign-up) and GetFollowSuggestions (its home page).
@Suite struct FeedBatchTests {
    func batch(_ server: TestServer, as user: String?, _ feeds: String) async throws -> TestServer.Reply {
        try await server.api(.POST, "/feeds/feeds/batch", as: user, json: #"{"feeds":[\#(feeds)]}"#)
    }

    @Test func feedsAreCreatedInBatchOrReturnedAsTheyAre() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("hashtag")
            #expect(try await server.api(.POST, "/feeds/feed_groups/hashtag/feeds/go", as: "bob", json: "{}").status == 201)
            let made = try await batch(
                server, as: "alice",
                #"{"feed_group_id":"hashtag","feed_id":"swift","name":"Swift"},{"feed_group_id":"user","feed_id":"alice"},"#
                    + #"{"feed_group_id":"hashtag","feed_id":"go"},{"feed_group_id":"hashtag","feed_id":"swift"}"#)
            #expect(made.status == 201, "\(made.text)")
            let feeds = made.body["feeds"].array
            #expect(feeds.compactMap { $0["feed"].string } == ["hashtag:swift", "user:alice", "hashtag:go", "hashtag:swift"])
            #expect(feeds[0]["name"].string == "Swift" && feeds[0]["created_by"]["id"].string == "alice")
            #expect(feeds[1]["visibility"].string == "visible")
            #expect(feeds[2]["created_by"]["id"].string == "bob", "an existing feed is returned as it is")
            let again = try await batch(server, as: "alice", #"{"feed_group_id":"hashtag","feed_id":"swift","name":"Other"}"#)
            #expect(again.body["feeds"][0]["name"].string == "Swift")
            let byServer = try await batch(
                server, as: nil, #"{"feed_group_id":"hashtag","feed_id":"rust","created_by_id":"carl","visibility":"followers"}"#)
            #expect(byServer.body["feeds"][0]["created_by"]["id"].string == "carl", "\(byServer.text)")
            #expect(byServer.body["feeds"][0]["visibility"].string == "followers")
        }
    }

    @Test func badBatchesAreRefusedAndCreateNothing() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("hashtag")
            let ok = #"{"feed_group_id":"hashtag","feed_id":"fresh"},"#
            expectAPIError(
                try await batch(server, as: "alice", ok + #"{"feed_group_id":"user","feed_id":"bob"}"#), status: 403, code: 17)
            expectAPIError(
                try await batch(server, as: "alice", ok + #"{"feed_group_id":"nope","feed_id":"x"}"#), status: 400, code: 4,
                field: "feeds")
            expectAPIError(
                try await batch(server, as: "alice", #"{"feed_group_id":"hashtag","feed_id":"x","members":[{"user_id":"bob"}]}"#),
                status: 400, code: 4, field: "feeds[0].members")
            expectAPIError(
                try await batch(server, as: nil, #"{"feed_group_id":"hashtag","feed_id":"x"}"#), status: 400, code: 4,
                field: "feeds[0].created_by_id")
            expectAPIError(
                try await batch(server, as: "alice", #"{"feed_group_id":"hashtag","feed_id":"x","created_by_id":"bob"}"#),
                status: 403, code: 17)
            let many = (0...1000).map { #"{"feed_group_id":"hashtag","feed_id":"f\#($0)"}"# }.joined(separator: ",")
            expectAPIError(try await batch(server, as: "alice", many), status: 400, code: 4)
            expectAPIError(
                try await server.api(.POST, "/feeds/feeds/batch", as: "alice", json: #"{"feeds":[]}"#), status: 400, code: 4)
            #expect(try await server.number("SELECT count(*) FROM feeds") == 0)
        }
    }

    @Test func ownCapabilitiesComeForTheFeedsTheCallerMayRead() async throws {
        try await TestServer.run { server in
            for (feed, owner) in [("user:alice", "alice"), ("user:bob", "bob"), ("timeline:bob", "bob")] {
                try await server.createFeed(feed, owner: owner)
            }
            let reply = try await server.api(
                .POST, "/feeds/feeds/own_capabilities/batch", as: "alice",
                json: #"{"feeds":["user:alice","user:bob","timeline:bob","user:nobody"]}"#)
            #expect(reply.status == 201, "\(reply.text)")
            let capabilities = reply.body["capabilities"]
            #expect(Set(capabilities.object?.keys.map { $0 } ?? []) == ["user:alice", "user:bob"], "\(reply.text)")
            #expect(capabilities["user:alice"].array.contains(.string("update-feed")))
            #expect(capabilities["user:bob"].array.contains(.string("follow")))
            #expect(!capabilities["user:bob"].array.contains(.string("update-feed")))
        }
    }

    @Test func getOrCreateFollowsReturnsExistingFollowsWithoutAnError() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:bob", owner: "bob")
            try await server.createFeed("timeline:alice", owner: "alice")
            let body = #"{"follows":[{"source":"timeline:alice","target":"user:bob"}]}"#
            let first = try await server.api(.POST, "/feeds/follows/batch/upsert", as: "alice", json: body)
            #expect(first.status == 201 && first.body["created"].array.count == 1, "\(first.text)")
            let again = try await server.api(.POST, "/feeds/follows/batch/upsert", as: "alice", json: body)
            #expect(again.status == 201 && again.body["created"].array.isEmpty, "\(again.text)")
            #expect(again.body["follows"][0]["target_feed"]["feed"].string == "user:bob")
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/follows/batch/upsert", as: "alice",
                    json: #"{"follows":[{"source":"timeline:alice","target":"nope:bob"}]}"#),
                status: 400, code: 4, field: "follows[0].target")
        }
    }

    @Test func suggestionsAreTheMostFollowedFeedsNotYetFollowed() async throws {
        try await TestServer.run { server in
            for user in ["alice", "bob", "carl", "dora", "erin"] {
                try await server.createFeed("user:\(user)", owner: user)
                try await server.createFeed("timeline:\(user)", owner: user)
            }
            try await server.createFeed("user:hidden", owner: "hidden", visibility: "private")
            // bob has three followers, dora one, erin none; alice already follows dora.
            for (follower, target) in [("carl", "bob"), ("dora", "bob"), ("erin", "bob"), ("alice", "dora")] {
                #expect(try await server.follow("timeline:\(follower)", "user:\(target)", as: follower).status == 201)
            }
            let reply = try await server.api(.GET, "/feeds/feed_groups/user/follow_suggestions", as: "alice", query: "&limit=3")
            #expect(reply.status == 200, "\(reply.text)")
            let suggested = reply.body["suggestions"].array
            #expect(suggested.compactMap { $0["feed"].string } == ["user:bob", "user:erin", "user:carl"], "\(reply.text)")
            // bob is also followed by dora, whom alice follows: a friend of a friend.
            #expect(suggested[0]["follower_count"].int == 3 && suggested[0]["reason"].string == "friends_of_friends")
            #expect(suggested[1]["reason"].string == "popular", "\(reply.text)")
            #expect(suggested[0]["own_capabilities"].array.contains(.string("follow")))
            #expect(reply.body["algorithm_used"].string == "friends_of_friends")
            expectAPIError(
                try await server.api(.GET, "/feeds/feed_groups/user/follow_suggestions", as: nil), status: 400, code: 4)
            expectAPIError(
                try await server.api(.GET, "/feeds/feed_groups/nope/follow_suggestions", as: "alice"), status: 400, code: 4)
            let forServer = try await server.api(
                .GET, "/feeds/feed_groups/user/follow_suggestions", as: nil, query: "&user_id=bob&limit=10")
            #expect(!forServer.body["suggestions"].array.contains { $0["feed"].string == "user:bob" }, "\(forServer.text)")
            #expect(!forServer.body["suggestions"].array.contains { $0["feed"].string == "user:hidden" })
        }
    }

    /// Friends of friends come before the merely popular, by how many friends follow them; a
    /// blocked user's feeds are never offered, either way round.
    @Test func friendsOfFriendsComeFirstAndBlocksKeepFeedsOut() async throws {
        try await TestServer.run { server in
            for user in ["alice", "bob", "carl", "dora", "star", "quiet", "mallory"] {
                try await server.createFeed("user:\(user)", owner: user)
                try await server.createFeed("timeline:\(user)", owner: user)
            }
            // alice follows bob and carl; both follow quiet, bob follows dora; star is the most
            // followed of all, by people alice does not know.
            for (follower, target) in [
                ("alice", "bob"), ("alice", "carl"), ("bob", "quiet"), ("carl", "quiet"), ("bob", "dora"),
                ("dora", "star"), ("mallory", "star"), ("quiet", "star"), ("carl", "mallory"),
            ] {
                #expect(try await server.follow("timeline:\(follower)", "user:\(target)", as: follower).status == 201)
            }
            #expect(
                try await server.api(.POST, "/users/block", as: "mallory", json: #"{"blocked_user_id":"alice"}"#).status == 201)
            let reply = try await server.api(.GET, "/feeds/feed_groups/user/follow_suggestions", as: "alice", query: "&limit=10")
            let suggested = reply.body["suggestions"].array
            #expect(
                suggested.compactMap { $0["feed"].string } == ["user:quiet", "user:dora", "user:star"], "\(reply.text)")
            #expect(suggested.compactMap { $0["recommendation_score"].double } == [2, 1, 3], "\(reply.text)")
            #expect(suggested.compactMap { $0["reason"].string } == ["friends_of_friends", "friends_of_friends", "popular"])
        }
    }
}
