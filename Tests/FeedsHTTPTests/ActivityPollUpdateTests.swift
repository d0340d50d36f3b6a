import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// A poll put on, kept on and taken off an activity by its updates (UpdateActivity's `poll_id`,
/// UpdateActivityPartial's and the batch's `set.poll_id` and `unset`).
@Suite struct ActivityPollUpdateTests {
    func poll(_ server: TestServer, as user: String) async throws -> String {
        let made = try await server.api(
            .POST, "/polls", as: user, json: #"{"name":"Lunch?","options":[{"text":"a"},{"text":"b"}]}"#)
        return try #require(made.body["poll"]["id"].string, "\(made.text)")
    }

    @Test func updatesPutKeepAndTakeOffAPoll() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice", text: "plain")["id"].string)
            let lunch = try await poll(server, as: "alice")
            let path = "/feeds/activities/\(id)"
            let put = try await server.api(.PATCH, path, as: "alice", json: #"{"set":{"poll_id":"\#(lunch)"}}"#)
            #expect(put.status == 200 && put.body["activity"]["poll"]["id"].string == lunch, "\(put.text)")
            // Readers see it, and vote on it.
            let read = try await server.api(.GET, path, as: "bob")
            #expect(read.body["activity"]["poll"]["name"].string == "Lunch?")
            let option = try #require(read.body["activity"]["poll"]["options"][0]["id"].string)
            let vote = try await server.api(
                .POST, "/feeds/activities/\(id)/polls/\(lunch)/vote", as: "bob", json: #"{"vote":{"option_id":"\#(option)"}}"#)
            #expect(vote.status == 201, "\(vote.text)")
            // A full update without poll_id keeps it; unset takes it off.
            let edited = try await server.api(.PUT, path, as: "alice", json: #"{"text":"edited"}"#)
            #expect(edited.body["activity"]["poll"]["id"].string == lunch && edited.body["activity"]["text"].string == "edited", "\(edited.text)")
            let off = try await server.api(.PATCH, path, as: "alice", json: #"{"unset":["poll_id"]}"#)
            #expect(off.status == 200 && off.body["activity"]["poll"] == .null, "\(off.text)")
            // UpdateActivity's poll_id and the batch's set.poll_id put one on.
            let again = try await server.api(.PUT, path, as: "alice", json: #"{"text":"again","poll_id":"\#(lunch)"}"#)
            #expect(again.body["activity"]["poll"]["id"].string == lunch, "\(again.text)")
            let other = try #require(try await server.addActivity(as: "alice", text: "second")["id"].string)
            let batch = try await server.api(
                .PATCH, "/feeds/activities/batch/partial", as: "alice",
                json: #"{"changes":[{"activity_id":"\#(other)","set":{"poll_id":"\#(lunch)"}}]}"#)
            #expect(batch.body["activities"][0]["poll"]["id"].string == lunch, "\(batch.text)")
        }
    }

    /// Another user's poll, a poll that does not exist, a poll id of the wrong type: refused, the
    /// activity left as it was.
    @Test func onlyOnesOwnExistingPollGoesOn() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice", text: "plain")["id"].string)
            let bobs = try await poll(server, as: "bob")
            let path = "/feeds/activities/\(id)"
            expectAPIError(try await server.api(.PATCH, path, as: "alice", json: #"{"set":{"poll_id":"\#(bobs)"}}"#), status: 403, code: 17)
            expectAPIError(try await server.api(.PUT, path, as: "alice", json: #"{"text":"x","poll_id":"\#(bobs)"}"#), status: 403, code: 17)
            expectAPIError(
                try await server.api(.PATCH, path, as: "alice", json: #"{"set":{"poll_id":"no-such-poll"}}"#), status: 400, code: 4,
                field: "poll_id")
            expectAPIError(
                try await server.api(.PATCH, path, as: "alice", json: #"{"set":{"poll_id":7}}"#), status: 400, code: 4,
                field: "set.poll_id")
            expectAPIError(
                try await server.api(
                    .PATCH, "/feeds/activities/batch/partial", as: "alice",
                    json: #"{"changes":[{"activity_id":"\#(id)","set":{"poll_id":"\#(bobs)"}}]}"#), status: 403, code: 17)
            let read = try await server.api(.GET, path, as: "alice")
            #expect(read.body["activity"]["poll"] == .null && read.body["activity"]["text"].string == "plain", "\(read.text)")
            // The server puts anyone's poll on anyone's activity.
            let byServer = try await server.api(.PATCH, path, as: nil, json: #"{"set":{"poll_id":"\#(bobs)"}}"#)
            #expect(byServer.body["activity"]["poll"]["id"].string == bobs, "\(byServer.text)")
        }
    }
}
