import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// RestoreActivity through the real server: a soft-deleted post comes back into its feed, its
/// counts and its followers' timelines, with its reactions; only its owner or the server restores,
/// and only what is deleted, not expired, and there.
@Suite struct RestoreActivityTests {
    func restore(_ server: TestServer, _ id: String, as user: String?, _ json: String = "{}") async throws -> TestServer.Reply {
        try await server.api(.POST, "/feeds/activities/\(id)/restore", as: user, json: json)
    }

    @Test func aDeletedPostComesBackEverywhere() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:bob", owner: "bob")
            try await server.createFeed("timeline:alice", owner: "alice")
            #expect(try await server.follow("timeline:alice", "user:bob", as: "alice").status == 201)
            let post = try #require(try await server.addActivity(as: "bob", text: "again")["id"].string)
            try await eventually("the post in alice's timeline") { try await server.timeline("timeline:alice", as: "alice") == [post] }
            #expect(try await server.api(.POST, "/feeds/activities/\(post)/reactions", as: "alice", json: #"{"type":"like"}"#).status == 201)
            expectAPIError(try await restore(server, post, as: "bob"), status: 400, code: 4, field: "id")

            #expect(try await server.api(.DELETE, "/feeds/activities/\(post)", as: "bob").status == 200)
            #expect(try await server.timeline("timeline:alice", as: "alice").isEmpty)
            expectAPIError(try await restore(server, post, as: "alice"), status: 403, code: 17)
            let (socket, inbox, connection) = try await server.connected("alice")
            try await server.watch("user:bob", as: "alice", connectionID: connection)

            let back = try await restore(server, post, as: "bob")
            #expect(back.status == 201, "\(back.text)")
            #expect(back.body["activity"]["id"].string == post && back.body["activity"]["deleted_at"] == .null)
            #expect(back.body["activity"]["reaction_count"].int == 1, "its reactions stay: \(back.text)")
            let event = try await inbox.event()
            #expect(event["type"].string == "feeds.activity.restored" && event["activity"]["id"].string == post, "\(event)")
            let feed = try await server.api(.POST, "/feeds/feed_groups/user/feeds/bob", as: "alice", json: "{}")
            #expect(feed.body["activities"].array.compactMap { $0["id"].string } == [post], "\(feed.text)")
            #expect(feed.body["feed"]["activity_count"].int == 1)
            try await eventually("the post in alice's timeline again") {
                try await server.timeline("timeline:alice", as: "alice") == [post]
            }
            try await socket.hangUp()
        }
    }

    @Test func onlyWhatIsDeletedAndThereComesBack() async throws {
        try await TestServer.run { server in
            expectAPIError(try await restore(server, "no-such-activity", as: "bob"), status: 404, code: 16)
            let post = try #require(try await server.addActivity(as: "bob", text: "gone")["id"].string)
            #expect(try await server.api(.DELETE, "/feeds/activities/\(post)", as: "bob", query: "&hard_delete=true").status == 200)
            expectAPIError(try await restore(server, post, as: "bob"), status: 404, code: 16)

            let story = try #require(
                try await server.addActivity(
                    as: "bob", text: "brief", extra: #""expires_at":"\#(Date().addingTimeInterval(3600).formatted(.iso8601))""#)["id"].string)
            #expect(try await server.api(.DELETE, "/feeds/activities/\(story)", as: "bob").status == 200)
            _ = try await server.number("UPDATE activities SET expires_at = now() - interval '1 second' WHERE id = \(story) RETURNING 1")
            expectAPIError(try await restore(server, story, as: "bob"), status: 400, code: 4, field: "id")

            let mine = try #require(try await server.addActivity(as: "bob", text: "by the server")["id"].string)
            #expect(try await server.api(.DELETE, "/feeds/activities/\(mine)", as: "bob").status == 200)
            let byServer = try await restore(server, mine, as: nil, #"{"user_id":"bob"}"#)
            #expect(byServer.status == 201 && byServer.body["activity"]["text"].string == "by the server", "\(byServer.text)")
        }
    }
}
