import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// An activity's `current_feed` on a feed page: the feed it is read in, or for a timeline's copy
/// the feed it was posted to, with what the reader may do there and their follows of it (Stream's
/// clients build the activity's buttons from its `own_capabilities` and `own_follows`).
@Suite struct CurrentFeedTests {
    @Test func aPageNamesTheFeedEachActivityIsReadIn() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("room")
            try await server.createFeed("user:alice", owner: "alice")
            try await server.createFeed("room:lobby", owner: "alice")
            try await server.createFeed("timeline:bob", owner: "bob")
            #expect(try await server.follow("timeline:bob", "user:alice", as: "bob").status == 201)
            let both = try #require(
                try await server.addActivity(as: "alice", feeds: ["user:alice", "room:lobby"], text: "both")["id"].string)
            try await server.waitForFanout()

            // Her own feed: hers to post in.
            let own = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: "{}")
            let mine = own.body["activities"][0]["current_feed"]
            #expect(mine["feed"].string == "user:alice", "\(own.text)")
            #expect(mine["own_capabilities"].array.compactMap(\.string).contains("add-activity"))
            // The room: the same activity, read in the room.
            let room = try await server.api(.POST, "/feeds/feed_groups/room/feeds/lobby", as: "bob", json: "{}")
            #expect(room.body["activities"][0]["current_feed"]["feed"].string == "room:lobby", "\(room.text)")
            // bob's timeline: the copy names where it was posted, bob's own capabilities and follow there.
            let timeline = try await server.api(.POST, "/feeds/feed_groups/timeline/feeds/bob", as: "bob", json: "{}")
            let activity = timeline.body["activities"][0]
            #expect(activity["id"].string == both, "\(timeline.text)")
            let origin = activity["current_feed"]
            #expect(origin["feed"].string == "user:alice", "\(timeline.text)")
            let capabilities = origin["own_capabilities"].array.compactMap(\.string)
            #expect(capabilities.contains("read-feed") && !capabilities.contains("add-activity"), "\(capabilities)")
            // bob follows alice: Stream's sample app shows "Following" on the post from this.
            let follows = origin["own_follows"].array
            #expect(follows.count == 1, "\(origin)")
            #expect(follows.first?["source_feed"]["feed"].string == "timeline:bob", "\(origin)")
            #expect(follows.first?["target_feed"]["feed"].string == "user:alice", "\(origin)")
            #expect(mine["own_follows"].array.isEmpty, "the feed read carries the reader's own follows")
        }
    }

    /// Off a feed's page, as on Stream: an activity posted to one feed names it; one posted to
    /// several names none; a feed the reader may not read is never shown.
    @Test func queryAndGetNameTheOneFeedAnActivityWasPostedTo() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("room")
            try await server.createFeed("user:alice", owner: "alice")
            try await server.createFeed("room:lobby", owner: "alice")
            let one = try #require(
                try await server.addActivity(as: "alice", feeds: ["user:alice"], text: "one")["id"].string)
            let both = try #require(
                try await server.addActivity(as: "alice", feeds: ["user:alice", "room:lobby"], text: "both")["id"].string)

            let got = try await server.api(.GET, "/feeds/activities/\(one)", as: "bob")
            let current = got.body["activity"]["current_feed"]
            #expect(current["feed"].string == "user:alice", "\(got.text)")
            let capabilities = current["own_capabilities"].array.compactMap(\.string)
            #expect(capabilities.contains("read-feed") && !capabilities.contains("add-activity"), "\(capabilities)")
            let several = try await server.api(.GET, "/feeds/activities/\(both)", as: "bob")
            #expect(several.status == 200 && several.body["activity"]["current_feed"].isNull, "\(several.text)")

            let query = try await server.api(
                .POST, "/feeds/activities/query", as: "alice", json: #"{"filter":{"user_id":"alice"}}"#)
            let byID = Dictionary(
                uniqueKeysWithValues: query.body["activities"].array.compactMap { a in a["id"].string.map { ($0, a) } })
            #expect(byID[one]?["current_feed"]["feed"].string == "user:alice", "\(query.text)")
            #expect(byID[one]?["current_feed"]["own_capabilities"].array.compactMap(\.string).contains("add-activity") == true)
            #expect(byID[both]?["current_feed"].isNull == true, "\(query.text)")
        }
    }
}
