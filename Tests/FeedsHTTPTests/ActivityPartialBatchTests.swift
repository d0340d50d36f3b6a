import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// UpdateActivitiesPartialBatch through the real server: the changes in one transaction, those
/// that cannot apply skipped, a wrong one failing all.
@Suite struct ActivityPartialBatchTests {
    func changes(_ items: [String]) -> String { #"{"changes":[\#(items.joined(separator: ","))]}"# }

    @Test func changesApplyTogetherAndTheUnchangeableAreSkipped() async throws {
        try await TestServer.run { server in
            // Watching first, so that the posts' own events come before the updates'.
            try await server.createFeed("user:alice", owner: "alice")
            let (connection, inbox, connectionID) = try await server.connected("alice")
            try await server.watch("user:alice", as: "alice", connectionID: connectionID)
            let first = try #require(try await server.addActivity(as: "alice", text: "one")["id"].string)
            let second = try #require(try await server.addActivity(as: "alice", text: "two")["id"].string)
            let bobs = try #require(try await server.addActivity(as: "bob", text: "bob's")["id"].string)
            for _ in 0..<2 { #expect(try await inbox.event()["type"].string == "feeds.activity.added") }
            let reply = try await server.api(
                .PATCH, "/feeds/activities/batch/partial", as: "alice",
                json: changes([
                    #"{"activity_id":"\#(second)","set":{"text":"two, edited","custom.mood":"glad"}}"#,
                    #"{"activity_id":"\#(first)","unset":["text"],"set":{"custom":{"k":1}}}"#,
                    #"{"activity_id":"\#(bobs)","set":{"text":"not mine"}}"#,
                    #"{"activity_id":"missing","set":{"text":"x"}}"#,
                ]))
            #expect(reply.status == 200, "\(reply.text)")
            let updated = reply.body["activities"].array
            // In the order asked, without bob's (not alice's) and the missing one.
            #expect(updated.compactMap { $0["id"].string } == [second, first])
            #expect(updated[0]["text"].string == "two, edited" && updated[0]["custom"]["mood"].string == "glad")
            #expect(updated[1]["text"] == .null || updated[1]["text"].string == "", "\(updated[1])")
            #expect(updated[1]["custom"]["k"].int == 1)
            let bob = try await server.api(.GET, "/feeds/activities/\(bobs)", as: "bob")
            #expect(bob.body["activity"]["text"].string == "bob's")
            var heard: [String] = []
            for _ in 0..<2 {
                let event = try await inbox.event()
                #expect(event["type"].string == "feeds.activity.updated", "\(event)")
                heard.append(event["activity"]["id"].string ?? "")
            }
            #expect(Set(heard) == [first, second])
            // A change that changes nothing is skipped too.
            let same = try await server.api(
                .PATCH, "/feeds/activities/batch/partial", as: "alice",
                json: changes([#"{"activity_id":"\#(second)","set":{"text":"two, edited"}}"#]))
            #expect(same.status == 200 && same.body["activities"].array.isEmpty, "\(same.text)")
            // The server changes anyone's.
            let byServer = try await server.api(
                .PATCH, "/feeds/activities/batch/partial", as: nil,
                json: changes([#"{"activity_id":"\#(bobs)","set":{"text":"moderated"}}"#]))
            #expect(byServer.body["activities"][0]["text"].string == "moderated", "\(byServer.text)")
            try await connection.hangUp()
        }
    }

    /// A wrong change anywhere writes none of them and names its item; and the bounds.
    @Test func aWrongChangeWritesNothing() async throws {
        try await TestServer.run { server in
            let first = try #require(try await server.addActivity(as: "alice", text: "one")["id"].string)
            let second = try #require(try await server.addActivity(as: "alice", text: "two")["id"].string)
            let path = "/feeds/activities/batch/partial"
            let good = #"{"activity_id":"\#(first)","set":{"text":"changed"}}"#
            for (bad, field) in [
                (#"{"activity_id":"\#(second)","set":{"user_id":"mallory"}}"#, "changes[1].set.user_id"),
                (#"{"activity_id":"\#(second)","set":{"visibility":"everyone"}}"#, nil),
                (#"{"activity_id":"\#(second)","set":{"feeds":["user:mallory"]}}"#, nil),
                (#"{"activity_id":"\#(second)"}"#, "changes[1].set"),
                (#"{"activity_id":"\#(second)","unset":["type"]}"#, "changes[1].unset"),
                (#"{"activity_id":"\#(first)","set":{"text":"again"}}"#, "changes[1].activity_id"),
                (#"{"activity_id":"","set":{"text":"x"}}"#, "changes[1].activity_id"),
                (#"{"activity_id":"\#(second)","set":{"custom":"flat"}}"#, "changes[1].set.custom"),
            ] {
                let reply = try await server.api(.PATCH, path, as: "alice", json: changes([good, bad]))
                #expect((400...403).contains(reply.status), "\(bad): \(reply.text)")
                if let field { #expect(reply.body["exception_fields"][field].string != nil, "\(bad): \(reply.text)") }
            }
            let text = try await server.api(.GET, "/feeds/activities/\(first)", as: "alice").body["activity"]["text"].string
            #expect(text == "one", "nothing of a refused batch is written")
            expectAPIError(try await server.api(.PATCH, path, as: "alice", json: changes([])), status: 400, code: 4)
            let many = (0...100).map { #"{"activity_id":"a\#($0)","set":{"text":"x"}}"# }
            expectAPIError(try await server.api(.PATCH, path, as: "alice", json: changes(many)), status: 400, code: 4)
            let hundred = (0..<100).map { #"{"activity_id":"a\#($0)","set":{"text":"x"}}"# }
            let none = try await server.api(.PATCH, path, as: "alice", json: changes(hundred))
            #expect(none.status == 200 && none.body["activities"].array.isEmpty, "\(none.text)")
        }
    }
}
