import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// `expires_at` (stories): kept, shown, checked, and honoured by every read once past; the expiry
/// service then deletes the activity with its notifications. The waits are hang guards.
@Suite struct StoryExpiryTests {
    func rfc3339(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    @Test func anExpiredActivityVanishesFromEveryReadAndIsThenDeleted() async throws {
        try await TestServer.run(configure: { $0.expiryInterval = .milliseconds(200) }) { server in
            let soon = rfc3339(Date().addingTimeInterval(3))
            let story = try #require(
                try await server.addActivity(as: "alice", type: "story", text: "now", extra: #""expires_at":"\#(soon)""#)["id"]
                    .string)
            let kept = try #require(try await server.addActivity(as: "alice", text: "stays")["id"].string)
            let bob = #""create_notification_activity":true"#
            let read = try await server.api(.GET, "/feeds/activities/\(story)", as: "alice")
            // Read before it expires (on a busy machine the three seconds may pass first).
            if read.status == 200 {
                #expect(read.body["activity"]["expires_at"].int != nil, "\(read.text)")
                _ = try await server.react(story, "like", as: "bob", extra: bob)
            }
            try await eventually("the story to expire") {
                try await server.api(.GET, "/feeds/activities/\(story)", as: "alice").status == 404
            }
            let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: "{}")
            #expect(page.body["activities"].array.compactMap { $0["id"].string } == [kept], "\(page.text)")
            let queried = try await server.api(
                .POST, "/feeds/activities/query", as: nil, json: #"{"filter":{"id":{"$in":["\#(story)"]}}}"#)
            #expect(queried.body["activities"].array.isEmpty, "\(queried.text)")
            expectAPIError(try await server.react(story, "like", as: "carl"), status: 404, code: 16)
            // The expiry service deletes it, and its notification right after in the same pass.
            try await eventually("the expired story and its notification to be deleted") {
                let stories = try await server.number("SELECT count(*)::int FROM activities WHERE id = \(story)")
                let notifications = try await server.number("SELECT count(*)::int FROM notifications")
                return stories == 0 && notifications == 0
            }
            #expect(try await server.number("SELECT count(*)::int FROM activities WHERE id = \(kept)") == 1)
        }
    }

    @Test(arguments: ["\"2001-01-01T00:00:00Z\"", "-5", "\"soon\"", "\"2999-01-01T00:00:00Z\"", "1"])
    func aPastFarOrMalformedExpiryIsRefusedAndNothingWritten(_ value: String) async throws {
        try await TestServer.run { server in
            let reply = try await server.api(
                .POST, "/feeds/activities", as: "alice",
                json: #"{"type":"story","feeds":["user:alice"],"text":"x","expires_at":\#(value)}"#)
            expectAPIError(reply, status: 400, code: 4)
            #expect(try await server.number("SELECT count(*)::int FROM activities") == 0)
        }
    }
}
