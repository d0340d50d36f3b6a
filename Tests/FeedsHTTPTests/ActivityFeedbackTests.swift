import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// ActivityFeedback through the real server: a hidden activity leaves the feed pages and
/// timelines its reader reads (and no one else's), reads by id say `hidden`, undoing brings it
/// back, and the event reaches only that reader's sockets.
@Suite struct ActivityFeedbackTests {
    func page(_ server: TestServer, _ feed: String, as user: String) async throws -> [String] {
        let parts = feed.split(separator: ":")
        let reply = try await server.api(.POST, "/feeds/feed_groups/\(parts[0])/feeds/\(parts[1])", as: user, json: "{}")
        return reply.body["activities"].array.compactMap { $0["id"].string }
    }

    @Test func aHiddenActivityLeavesItsReadersFeeds() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            #expect(try await server.api(.POST, "/feeds/follows", as: "bob", json: #"{"source":"timeline:bob","target":"user:alice"}"#).status == 201)
            // Watching first, so that the posts' own events come before the feedback's, in order.
            let (connection, inbox, connectionID) = try await server.connected("bob")
            try await server.watch("user:alice", as: "bob", connectionID: connectionID)
            let kept = try #require(try await server.addActivity(as: "alice", text: "kept")["id"].string)
            let noisy = try #require(try await server.addActivity(as: "alice", text: "noisy")["id"].string)
            for _ in 0..<2 { #expect(try await inbox.event()["type"].string == "feeds.activity.added") }
            let hid = try await server.api(.POST, "/feeds/activities/\(noisy)/feedback", as: "bob", json: #"{"hide":true}"#)
            #expect(hid.status == 201 && hid.body["activity_id"].string == noisy, "\(hid.text)")
            let event = try await inbox.event()
            #expect(event["type"].string == "feeds.activity.feedback", "\(event)")
            #expect(event["activity_feedback"]["action"].string == "hide" && event["activity_feedback"]["value"].string == "true")
            #expect(event["activity_feedback"]["activity_id"].string == noisy && event["activity_feedback"]["user"]["id"].string == "bob")
            // Bob's pages leave it out; alice's and carol's keep it.
            #expect(try await page(server, "user:alice", as: "bob") == [kept])
            #expect(try await page(server, "timeline:bob", as: "bob") == [kept])
            #expect(try await page(server, "user:alice", as: "carol") == [noisy, kept])
            #expect(try await page(server, "user:alice", as: "alice") == [noisy, kept])
            // By id it is there, and says so to bob alone.
            #expect(try await server.api(.GET, "/feeds/activities/\(noisy)", as: "bob").body["activity"]["hidden"].bool == true)
            #expect(try await server.api(.GET, "/feeds/activities/\(noisy)", as: "carol").body["activity"]["hidden"].bool == false)
            // The server reads it for bob with user_id; a user may not read as another.
            #expect(
                try await server.api(.GET, "/feeds/activities/\(noisy)", as: nil, query: "&user_id=bob").body["activity"]["hidden"]
                    .bool == true)
            expectAPIError(
                try await server.api(.GET, "/feeds/activities/\(noisy)", as: "carol", query: "&user_id=bob"), status: 403, code: 17)
            // QueryActivities still finds it (Stream: "they can still be queried"), marked.
            let queried = try await server.api(
                .POST, "/feeds/activities/query", as: "bob", json: #"{"filter":{"user_id":"alice"}}"#)
            let marks = queried.body["activities"].array.map { ($0["id"].string ?? "", $0["hidden"].bool ?? false) }
            #expect(marks.map(\.0) == [noisy, kept] && marks.map(\.1) == [true, false], "\(queried.text)")
            // Show it again; show_more and show_less are taken.
            #expect(try await server.api(.POST, "/feeds/activities/\(noisy)/feedback", as: "bob", json: #"{"hide":false}"#).status == 201)
            #expect(try await page(server, "user:alice", as: "bob") == [noisy, kept])
            #expect(try await server.api(.POST, "/feeds/activities/\(kept)/feedback", as: "bob", json: #"{"show_more":true}"#).status == 201)
            #expect(try await server.number("SELECT preference::int FROM activity_feedback WHERE activity_id = \(kept)") == 1)
            // The server gives feedback for the user it names.
            #expect(
                try await server.api(.POST, "/feeds/activities/\(kept)/feedback", as: nil, json: #"{"hide":true,"user_id":"carol"}"#)
                    .status == 201)
            #expect(try await page(server, "user:alice", as: "carol") == [noisy])
            try await connection.hangUp()
        }
    }

    @Test func feedbackOnWhatOneMayNotReadIsRefused() async throws {
        try await TestServer.run { server in
            let hidden = try #require(try await server.addActivity(as: "alice", extra: #""visibility":"private""#)["id"].string)
            let open = try #require(try await server.addActivity(as: "alice")["id"].string)
            expectAPIError(
                try await server.api(.POST, "/feeds/activities/\(hidden)/feedback", as: "mallory", json: #"{"hide":true}"#),
                status: 404, code: 16)
            expectAPIError(
                try await server.api(.POST, "/feeds/activities/missing/feedback", as: "mallory", json: #"{"hide":true}"#),
                status: 404, code: 16)
            expectAPIError(
                try await server.api(.POST, "/feeds/activities/\(open)/feedback", as: "mallory", json: "{}"), status: 400, code: 4,
                field: "hide")
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/activities/\(open)/feedback", as: "mallory", json: #"{"show_less":true,"show_more":true}"#),
                status: 400, code: 4, field: "show_more")
            expectAPIError(
                try await server.api(.POST, "/feeds/activities/\(open)/feedback", as: "mallory", json: #"{"hide":true,"user_id":"bob"}"#),
                status: 403, code: 17)
            expectAPIError(
                try await server.api(.POST, "/feeds/activities/\(open)/feedback", as: nil, json: #"{"hide":true}"#), status: 400,
                code: 4, field: "user_id")
            // The server naming a user who may not read it is refused too.
            expectAPIError(
                try await server.api(.POST, "/feeds/activities/\(hidden)/feedback", as: nil, json: #"{"hide":true,"user_id":"bob"}"#),
                status: 404, code: 16)
            #expect(try await server.number("SELECT count(*)::int FROM activity_feedback") == 0)
        }
    }
}
