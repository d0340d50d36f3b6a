import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// Pinned activities through the real server: the feed's owner (or the server) pins its activities
/// to its top; readers see them on the feed and through QueryPinnedActivities, and only those
/// they may read; a deleted activity is unpinned; the watchers hear of each pin.
@Suite struct PinTests {
    func pin(_ server: TestServer, _ activity: String, in feed: String = "user:alice", as user: String?, extra: String = "")
        async throws -> TestServer.Reply
    {
        let parts = feed.split(separator: ":")
        return try await server.api(
            .POST, "/feeds/feed_groups/\(parts[0])/feeds/\(parts[1])/activities/\(activity)/pin", as: user, json: "{\(extra)}")
    }

    func unpin(_ server: TestServer, _ activity: String, as user: String?) async throws -> TestServer.Reply {
        try await server.api(.DELETE, "/feeds/feed_groups/user/feeds/alice/activities/\(activity)/pin", as: user)
    }

    func pinned(_ server: TestServer, as user: String, _ json: String = "{}") async throws -> TestServer.Reply {
        try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice/pinned_activities/query", as: user, json: json)
    }

    @Test func theOwnerPinsAndReadersSeeThePins() async throws {
        try await TestServer.run { server in
            let first = try #require(try await server.addActivity(as: "alice", text: "first")["id"].string)
            let second = try #require(try await server.addActivity(as: "alice", text: "second")["id"].string)
            let (socket, inbox, connection) = try await server.connected("bob")
            try await server.watch("user:alice", as: "bob", connectionID: connection)

            let made = try await pin(server, first, as: "alice")
            #expect(made.status == 201, "\(made.text)")
            #expect(made.body["activity"]["id"].string == first && made.body["feed"].string == "user:alice")
            #expect(made.body["user_id"].string == "alice" && made.body["created_at"].int != nil)
            let event = try await inbox.event()
            #expect(event["type"].string == "feeds.activity.pinned", "\(event)")
            #expect(event["pinned_activity"]["activity"]["id"].string == first && event["fid"].string == "user:alice")
            let again = try await pin(server, first, as: "alice")
            #expect(again.status == 201 && again.body["created_at"] == made.body["created_at"], "pinning again is the same pin")
            #expect(try await pin(server, second, as: nil, extra: #""user_id":"carl""#).status == 201, "the server pins for anyone")
            let byServer = try await inbox.event()
            #expect(byServer["pinned_activity"]["activity"]["id"].string == second, "only a new pin is announced: \(byServer)")

            let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "bob", json: "{}")
            #expect(page.body["feed"]["pin_count"].int == 2, "\(page.text)")
            #expect(page.body["pinned_activities"].array.compactMap { $0["activity"]["id"].string } == [second, first])
            #expect(page.body["pinned_activities"][0]["user"]["id"].string == "carl")
            let listed = try await pinned(server, as: "bob", #"{"limit":1}"#)
            #expect(listed.status == 201 && listed.body["pinned_activities"].array.count == 1, "\(listed.text)")
            let next = try #require(listed.body["next"].string)
            let rest = try await pinned(server, as: "bob", #"{"limit":1,"next":"\#(next)"}"#)
            #expect(rest.body["pinned_activities"][0]["activity"]["id"].string == first, "\(rest.text)")
            #expect(rest.body["next"] == .null)

            // Unpinned, and a deleted activity unpinned with it.
            let gone = try await unpin(server, first, as: "alice")
            #expect(gone.status == 200 && gone.body["activity"]["id"].string == first, "\(gone.text)")
            let unpinned = try await inbox.event()
            #expect(unpinned["type"].string == "feeds.activity.unpinned", "\(unpinned)")
            expectAPIError(try await unpin(server, first, as: "alice"), status: 404, code: 16)
            #expect(try await server.api(.DELETE, "/feeds/activities/\(second)", as: "alice").status == 200)
            let after = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: "{}")
            #expect(after.body["feed"]["pin_count"].int == 0 && after.body["pinned_activities"].array.isEmpty, "\(after.text)")
            try await socket.hangUp()
        }
    }

    @Test func onlyTheOwnerPinsAndReadersSeeOnlyWhatTheyMayRead() async throws {
        try await TestServer.run { server in
            let post = try #require(try await server.addActivity(as: "alice", text: "hello")["id"].string)
            let secret = try #require(
                try await server.addActivity(as: "alice", text: "mine", extra: #""visibility":"private""#)["id"].string)
            let elsewhere = try #require(try await server.addActivity(as: "bob", text: "bob's")["id"].string)
            expectAPIError(try await pin(server, post, as: "bob"), status: 403, code: 17)
            expectAPIError(try await pin(server, elsewhere, as: "alice"), status: 404, code: 16)
            expectAPIError(try await pin(server, "no-such-activity", as: "alice"), status: 404, code: 16)
            expectAPIError(try await pin(server, post, in: "user:nobody", as: nil, extra: #""user_id":"x""#), status: 404, code: 16)
            expectAPIError(try await pin(server, post, in: "nope:alice", as: "alice"), status: 400, code: 4, field: "feed_group_id")
            #expect(try await pin(server, secret, as: "alice").status == 201)
            #expect(try await pin(server, post, as: "alice").status == 201)
            expectAPIError(try await unpin(server, post, as: "bob"), status: 403, code: 17)
            // bob sees the public pin only; alice both.
            #expect(try await pinned(server, as: "bob").body["pinned_activities"].array.compactMap { $0["activity"]["id"].string } == [post])
            #expect(try await pinned(server, as: "alice").body["pinned_activities"].array.count == 2)
            #expect(try await server.number("SELECT count(*) FROM activity_pins") == 2)
            expectAPIError(try await pinned(server, as: "bob", #"{"filter":{"x":1}}"#), status: 400, code: 4, field: "filter")
        }
    }

    @Test func aFeedKeepsAtMostAHundredPins() async throws {
        try await TestServer.run { server in
            var ids: [String] = []
            for index in 0...PinPage.maxPins {
                ids.append(try #require(try await server.addActivity(as: "alice", text: "p\(index)")["id"].string))
            }
            for id in ids.dropLast() { #expect(try await pin(server, id, as: "alice").status == 201) }
            expectAPIError(try await pin(server, ids.last!, as: "alice"), status: 400, code: 4, field: "activity_id")
            #expect(try await server.number("SELECT pin_count FROM feeds WHERE fid = 'user:alice'") == PinPage.maxPins)
        }
    }
}
