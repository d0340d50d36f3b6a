import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// UpdateCommentPartial and RestoreComment through the real server: fields set and unset one at
/// a time (custom keys merged with what is there, also under concurrent writers), only by the
/// author or the server; a soft-deleted comment back in its thread and counts.
@Suite struct CommentPartialAndRestoreTests {
    func partial(_ server: TestServer, _ id: String, as user: String?, _ json: String) async throws -> TestServer.Reply {
        try await server.api(.POST, "/feeds/comments/\(id)/partial", as: user, json: json)
    }

    @Test func fieldsAreSetAndUnsetOneAtATime() async throws {
        try await TestServer.run { server in
            let post = try #require(try await server.addActivity(as: "alice", text: "discuss")["id"].string)
            let made = try await server.api(
                .POST, "/feeds/comments", as: "bob",
                json: #"{"object_id":"\#(post)","object_type":"activity","comment":"first","custom":{"a":1,"b":2}}"#)
            let id = try #require(made.body["comment"]["id"].string)

            let changed = try await partial(server, id, as: "bob", #"{"set":{"text":"edited","custom.c":3},"unset":["custom.a"]}"#)
            #expect(changed.status == 201, "\(changed.text)")
            #expect(changed.body["comment"]["text"].string == "edited")
            #expect(changed.body["comment"]["custom"] == .object(["b": .number(2), "c": .number(3)]), "\(changed.text)")
            let whole = try await partial(server, id, as: nil, #"{"set":{"custom":{"z":true}},"user_id":"bob"}"#)
            #expect(whole.body["comment"]["custom"] == .object(["z": .bool(true)]), "\(whole.text)")
            #expect(try await partial(server, id, as: "bob", #"{"unset":["custom"]}"#).body["comment"]["custom"] == .object([:]))

            // Someone else's comment, unknown fields, wrong types, set and unset at once: refused, nothing changed.
            expectAPIError(try await partial(server, id, as: "carl", #"{"set":{"text":"mine"}}"#), status: 403, code: 17)
            expectAPIError(try await partial(server, id, as: "bob", #"{"set":{"user_id":"carl"}}"#), status: 400, code: 4)
            expectAPIError(try await partial(server, id, as: "bob", #"{"set":{"text":5}}"#), status: 400, code: 4)
            expectAPIError(try await partial(server, id, as: "bob", #"{"set":{"text":"x"},"unset":["text"]}"#), status: 400, code: 4)
            expectAPIError(try await partial(server, id, as: "bob", #"{"unset":["reply_count"]}"#), status: 400, code: 4)
            expectAPIError(
                try await partial(server, id, as: "bob", #"{"set":{"custom":{},"custom.k":1}}"#), status: 400, code: 4, field: "set.custom")
            expectAPIError(try await partial(server, "no-such-comment", as: "bob", #"{"set":{"text":"x"}}"#), status: 404, code: 16)
            let read = try await server.api(.GET, "/feeds/comments/\(id)", as: "bob")
            #expect(read.body["comment"]["text"].string == "edited" && read.body["comment"]["custom"] == .object([:]))
        }
    }

    @Test func customKeysSetAtOnceAreAllKept() async throws {
        try await TestServer.run { server in
            let post = try #require(try await server.addActivity(as: "alice", text: "discuss")["id"].string)
            let id = try #require(try await server.comment(on: post, "keys", as: "bob").body["comment"]["id"].string)
            try await hangGuard("16 partial updates at once", seconds: 300) {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for key in 0..<16 {
                        group.addTask {
                            try await partial(server, id, as: "bob", #"{"set":{"custom.k\#(key)":\#(key)}}"#).status
                        }
                    }
                    for try await status in group { #expect(status == 201) }
                }
            }
            let custom = try await server.api(.GET, "/feeds/comments/\(id)", as: "bob").body["comment"]["custom"]
            let expected = JSONValue.object(Dictionary(uniqueKeysWithValues: (0..<16).map { ("k\($0)", JSONValue.number(Double($0))) }))
            #expect(custom == expected, "every key kept: \(custom)")
        }
    }

    @Test func aDeletedCommentComesBackInItsThreadAndCounts() async throws {
        try await TestServer.run { server in
            let post = try #require(try await server.addActivity(as: "alice", text: "discuss")["id"].string)
            let id = try #require(try await server.comment(on: post, "oops", as: "bob").body["comment"]["id"].string)
            let reply = try #require(try await server.reply(to: id, "a reply", as: "carl").body["comment"]["id"].string)
            expectAPIError(try await server.api(.POST, "/feeds/comments/\(id)/restore", as: "bob", json: "{}"), status: 400, code: 4)
            #expect(try await server.api(.DELETE, "/feeds/comments/\(id)", as: "bob").status == 200)
            #expect(try await server.api(.GET, "/feeds/activities/\(post)", as: "bob").body["activity"]["comment_count"].int == 1)

            // Only its author (or the server); not while the comment it replies to is deleted.
            expectAPIError(try await server.api(.POST, "/feeds/comments/\(id)/restore", as: "carl", json: "{}"), status: 403, code: 17)
            #expect(try await server.api(.DELETE, "/feeds/comments/\(reply)", as: "carl").status == 200)
            let restored = try await server.api(.POST, "/feeds/comments/\(id)/restore", as: "bob", json: "{}")
            #expect(restored.status == 201, "\(restored.text)")
            #expect(restored.body["comment"]["id"].string == id && restored.body["comment"]["text"].string == "oops")
            #expect(restored.body["activity"]["id"].string == post && restored.body["activity"]["comment_count"].int == 1, "\(restored.text)")
            let byServer = try await server.api(.POST, "/feeds/comments/\(reply)/restore", as: nil, json: #"{"user_id":"carl"}"#)
            #expect(byServer.status == 201, "\(byServer.text)")
            let thread = try await server.api(.GET, "/feeds/comments", as: "bob", query: "&object_id=\(post)&object_type=activity")
            #expect(thread.body["comments"].array.compactMap { $0["id"].string } == [id], "\(thread.text)")
            #expect(try await server.api(.GET, "/feeds/activities/\(post)", as: "bob").body["activity"]["comment_count"].int == 2)

            // Not under a deleted activity.
            #expect(try await server.api(.DELETE, "/feeds/comments/\(id)", as: "bob").status == 200)
            #expect(try await server.api(.DELETE, "/feeds/activities/\(post)", as: "alice").status == 200)
            expectAPIError(try await server.api(.POST, "/feeds/comments/\(id)/restore", as: "bob", json: "{}"), status: 404, code: 16)
            expectAPIError(try await server.api(.POST, "/feeds/comments/nothing/restore", as: "bob", json: "{}"), status: 404, code: 16)
        }
    }
}
