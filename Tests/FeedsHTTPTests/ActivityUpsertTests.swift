import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// UpsertActivities through the real server: new activities added, existing ones written over,
/// all in one transaction or none.
@Suite struct ActivityUpsertTests {
    func activities(_ items: [String]) -> String { #"{"activities":[\#(items.joined(separator: ","))]}"# }

    func activity(_ id: String?, _ text: String, feed: String = "user:alice", extra: String = "") -> String {
        let named = id.map { #""id":"\#($0)","# } ?? ""
        return #"{\#(named)"type":"post","feeds":["\#(feed)"],"text":"\#(text)"\#(extra)}"#
    }

    @Test func newOnesAreAddedAndExistingOnesWrittenOver() async throws {
        try await TestServer.run { server in
            // Watching first, so that the first post's own event comes before the upsert's.
            try await server.createFeed("user:alice", owner: "alice")
            let (connection, inbox, connectionID) = try await server.connected("alice")
            try await server.watch("user:alice", as: "alice", connectionID: connectionID)
            let existing = try #require(try await server.addActivity(as: "alice", text: "before")["id"].string)
            #expect(try await inbox.event()["type"].string == "feeds.activity.added")
            let reply = try await server.api(
                .POST, "/feeds/activities/batch", as: "alice",
                json: activities([
                    activity("fresh-1", "new one", extra: #","custom":{"n":1}"#), activity(existing, "after"), activity(nil, "no id"),
                ]))
            #expect(reply.status == 201, "\(reply.text)")
            let written = reply.body["activities"].array
            #expect(written.compactMap { $0["text"].string } == ["new one", "after", "no id"])
            #expect(written[0]["id"].string == "fresh-1" && written[0]["custom"]["n"].int == 1)
            #expect(written[1]["id"].string == existing && written[1]["user"]["id"].string == "alice")
            var types: [String] = []
            for _ in 0..<3 { types.append(try await inbox.event()["type"].string ?? "") }
            #expect(types.sorted() == ["feeds.activity.added", "feeds.activity.added", "feeds.activity.updated"], "\(types)")
            let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: "{}")
            #expect(page.body["activities"].array.count == 3, "\(page.text)")
            // The server writes over anyone's; the owner stays.
            let byServer = try await server.api(
                .POST, "/feeds/activities/batch", as: nil, json: activities([activity("fresh-1", "moderated", extra: #","user_id":"bob""#)]))
            #expect(byServer.body["activities"][0]["text"].string == "moderated", "\(byServer.text)")
            #expect(byServer.body["activities"][0]["user"]["id"].string == "alice")
            try await connection.hangUp()
        }
    }

    /// A refusal anywhere writes none of the batch and names its item; and the bounds.
    @Test func aRefusedUpsertWritesNothing() async throws {
        try await TestServer.run { server in
            let alices = try #require(try await server.addActivity(as: "alice", text: "hers")["id"].string)
            let path = "/feeds/activities/batch"
            let good = activity("m-1", "fine", feed: "user:mallory")
            for (bad, status, field) in [
                (activity(alices, "taken over", feed: "user:mallory"), 403, nil as String?),
                (activity("m-2", "into hers", feed: "user:alice"), 403, nil),
                (activity("m-1", "twice", feed: "user:mallory"), 400, "activities[1].id"),
                (#"{"type":"post","feeds":[],"text":"nowhere"}"#, 400, nil),
                (activity("m-3", "poll", feed: "user:mallory", extra: #","poll_id":"p""#), 400, "activities[1].poll_id"),
                (activity("m-4", "files", feed: "user:mallory", extra: #","attachment_uploads":[{"name":"a.png"}]"#), 400, nil),
                (activity(String(repeating: "i", count: 256), "long id", feed: "user:mallory"), 400, nil),
                (activity("m-5", "group", feed: "nogroup:mallory"), 400, nil),
            ] {
                let reply = try await server.api(.POST, path, as: "mallory", json: activities([good, bad]))
                #expect(reply.status == status, "\(bad): \(reply.text)")
                if let field { #expect(reply.body["exception_fields"][field].string != nil, "\(bad): \(reply.text)") }
            }
            #expect(try await server.number("SELECT count(*)::int FROM activities WHERE user_id = 'mallory'") == 0)
            #expect(try await server.api(.GET, "/feeds/activities/\(alices)", as: "alice").body["activity"]["text"].string == "hers")
            expectAPIError(try await server.api(.POST, path, as: "mallory", json: activities([])), status: 400, code: 4)
            let many = (0...100).map { activity("x\($0)", "x", feed: "user:mallory") }
            expectAPIError(try await server.api(.POST, path, as: "mallory", json: activities(many)), status: 400, code: 4)
            // A deleted activity keeps its id.
            _ = try await server.api(.DELETE, "/feeds/activities/\(alices)", as: "alice")
            expectAPIError(
                try await server.api(.POST, path, as: "alice", json: activities([activity(alices, "again")])), status: 409, code: 4,
                field: "activities[0].id")
        }
    }
}
