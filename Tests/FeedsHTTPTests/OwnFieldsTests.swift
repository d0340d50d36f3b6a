import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// `own_follows`, `own_followings` and `own_membership`: what a feed is to the user reading it, on
/// GetOrCreateFeed, QueryFeeds and OwnBatch. Stream's SDKs draw their follow buttons from
/// `own_follows`; each user sees only their own.
@Suite struct OwnFieldsTests {
    func page(_ server: TestServer, _ fid: String, as user: String?, _ json: String = "{}") async throws -> TestServer.Reply {
        let parts = fid.split(separator: ":")
        let reply = try await server.api(.POST, "/feeds/feed_groups/\(parts[0])/feeds/\(parts[1])", as: user, json: json)
        #expect(reply.status == 201, "\(reply.text)")
        return reply
    }

    @Test func aReaderSeesTheirOwnFollowsOfAFeedAndNoOneElses() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            for user in ["bob", "carl", "alice"] { try await server.createFeed("timeline:\(user)", owner: user) }
            #expect(try await server.follow("timeline:bob", "user:alice", as: "bob").status == 201)
            #expect(try await server.follow("timeline:carl", "user:alice", as: "carl").status == 201)

            let bob = try await page(server, "user:alice", as: "bob")
            let follows = bob.body["feed"]["own_follows"].array
            #expect(follows.count == 1, "\(bob.text)")
            #expect(follows.first?["source_feed"]["feed"].string == "timeline:bob")
            #expect(follows.first?["target_feed"]["feed"].string == "user:alice")
            #expect(follows.first?["status"].string == "accepted")
            #expect(bob.body["feed"]["own_membership"].isNull)

            // alice follows nothing of hers; dora never followed: both see an empty list, not carl's or bob's.
            for user in ["alice", "dora"] {
                let reply = try await page(server, "user:alice", as: user)
                #expect(reply.body["feed"]["own_follows"].array.isEmpty, "\(user): \(reply.text)")
            }
            // A server call naming no user reads no one's own fields.
            let server_ = try await page(server, "user:alice", as: nil)
            #expect(server_.body["feed"]["own_follows"].isNull, "\(server_.text)")

            // After an unfollow it is gone.
            #expect(try await server.api(.DELETE, "/feeds/follows/timeline:bob/user:alice", as: "bob").status == 200)
            #expect(try await page(server, "user:alice", as: "bob").body["feed"]["own_follows"].array.isEmpty)
        }
    }

    /// A feed page's listed follows carry their feeds' own fields for the reader, as QueryFollows'
    /// do: a "follow back" button on a follower reads its `source_feed.own_follows`.
    @Test func aPagesListedFollowsCarryTheirFeedsOwnFields() async throws {
        try await TestServer.run { server in
            for user in ["alice", "bob", "carl"] {
                try await server.createFeed("user:\(user)", owner: user)
                try await server.createFeed("timeline:\(user)", owner: user)
            }
            #expect(try await server.follow("timeline:bob", "user:alice", as: "bob").status == 201)
            #expect(try await server.follow("timeline:carl", "user:alice", as: "carl").status == 201)
            #expect(try await server.follow("timeline:alice", "user:bob", as: "alice").status == 201)
            // bob reads alice's user feed: his follow of it shows on each listed follower's target.
            let followers = try await page(server, "user:alice", as: "bob").body["followers"].array
            #expect(followers.count == 2, "\(followers)")
            for follow in followers {
                #expect(follow["target_feed"]["own_follows"].array.count == 1, "bob follows user:alice: \(follow)")
                #expect(follow["source_feed"]["own_follows"].array.isEmpty, "bob follows no timeline: \(follow)")
            }
            let following = try await page(server, "timeline:alice", as: "alice").body["following"].array
            #expect(following.first?["target_feed"]["feed"].string == "user:bob", "\(following)")
            #expect(following.first?["target_feed"]["own_follows"].array.count == 1, "alice's follow of user:bob: \(following)")
            // A server call naming no user carries none.
            let bare = try await page(server, "user:alice", as: nil).body["followers"].array
            #expect(bare.allSatisfy { $0["source_feed"]["own_follows"].isNull }, "\(bare)")
        }
    }

    @Test func aFollowOfAFollowersFeedShowsOnceAcceptedAndSoDoesAMembership() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice", visibility: "followers")
            try await server.createFeed("timeline:bob", owner: "bob")
            #expect(try await server.follow("timeline:bob", "user:alice", as: "bob").status == 201)
            // bob may not read the feed yet, so OwnBatch leaves it out; alice's answer lets him in.
            let batch = try await server.api(.POST, "/feeds/feeds/own/batch", as: "bob", json: #"{"feeds":["user:alice"]}"#)
            #expect(batch.body["data"]["user:alice"].isNull, "\(batch.text)")
            let accepted = try await server.api(
                .POST, "/feeds/follows/accept", as: "alice", json: #"{"source":"timeline:bob","target":"user:alice"}"#)
            #expect(accepted.status == 201, "\(accepted.text)")
            let own = try await server.api(.POST, "/feeds/feeds/own/batch", as: "bob", json: #"{"feeds":["user:alice"]}"#)
            #expect(own.body["data"]["user:alice"]["own_follows"].array.count == 1, "\(own.text)")
            #expect(own.body["data"]["user:alice"]["own_followings"].array.isEmpty)

            try await server.createFeedGroups("room")
            let club = try await server.api(
                .POST, "/feeds/feed_groups/room/feeds/club", as: "alice",
                json: #"{"data":{"members":[{"user_id":"bob","role":"moderator"}]}}"#)
            #expect(club.status == 201, "\(club.text)")
            let member = try await page(server, "room:club", as: "bob")
            #expect(member.body["feed"]["own_membership"]["role"].string == "moderator", "\(member.text)")
            #expect(member.body["feed"]["own_membership"]["user"]["id"].string == "bob")
            #expect(try await page(server, "room:club", as: "carl").body["feed"]["own_membership"].isNull)
        }
    }

    @Test func ownFollowingsAreTheOwnersFollowsOfTheReaderWhenAskedFor() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:bob", owner: "bob")
            try await server.createFeed("timeline:alice", owner: "alice")
            try await server.createFeed("user:alice", owner: "alice")
            #expect(try await server.follow("timeline:alice", "user:bob", as: "alice").status == 201)
            let asked = try await page(server, "user:alice", as: "bob", #"{"enrichment_options":{"enrich_own_followings":true}}"#)
            let followings = asked.body["feed"]["own_followings"].array
            #expect(followings.count == 1, "\(asked.text)")
            #expect(followings.first?["source_feed"]["feed"].string == "timeline:alice")
            #expect(try await page(server, "user:alice", as: "bob").body["feed"]["own_followings"].isNull)
        }
    }

    @Test func queryFeedsCarriesEachFeedsOwnFollows() async throws {
        try await TestServer.run { server in
            for user in ["alice", "carl"] { try await server.createFeed("user:\(user)", owner: user) }
            try await server.createFeed("timeline:bob", owner: "bob")
            #expect(try await server.follow("timeline:bob", "user:alice", as: "bob").status == 201)
            let reply = try await server.api(
                .POST, "/feeds/feeds/query", as: "bob", json: #"{"filter":{"group_id":"user"}}"#)
            #expect(reply.status == 201, "\(reply.text)")
            var byFeed: [String: Int] = [:]
            for feed in reply.body["feeds"].array { byFeed[feed["feed"].string ?? ""] = feed["own_follows"].array.count }
            #expect(byFeed == ["user:alice": 1, "user:carl": 0], "\(reply.text)")
        }
    }

    /// The feeds of the follows QueryFollows lists carry the reader's own fields too: the follow
    /// buttons of a followers list.
    @Test func queriedFollowsCarryTheirFeedsOwnFields() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:carl", owner: "carl")
            for user in ["alice", "dave"] { try await server.createFeed("timeline:\(user)", owner: user) }
            #expect(try await server.follow("timeline:alice", "user:carl", as: "alice").status == 201)
            #expect(try await server.follow("timeline:dave", "user:carl", as: "dave").status == 201)
            let queried = try await server.api(
                .POST, "/feeds/follows/query", as: "alice", json: #"{"filter":{"target_feed":"user:carl"}}"#)
            #expect(queried.status == 201, "\(queried.text)")
            for follow in queried.body["follows"].array {
                #expect(follow["target_feed"]["own_follows"].array.count == 1, "\(follow)")
            }
        }
    }
}
