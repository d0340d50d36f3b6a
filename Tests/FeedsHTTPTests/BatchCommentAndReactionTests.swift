import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// AddCommentsBatch (all or none), and BatchQueryActivityReactions and BatchQueryCommentReactions
/// (one user's reactions across many objects), through the real server.
@Suite struct BatchCommentAndReactionTests {
    func comments(_ items: [String]) -> String { #"{"comments":[\#(items.joined(separator: ","))]}"# }

    func comment(_ activity: String, _ text: String, extra: String = "") -> String {
        #"{"object_id":"\#(activity)","object_type":"activity","comment":"\#(text)"\#(extra)}"#
    }

    @Test func aBatchOfCommentsIsAddedWhole() async throws {
        try await TestServer.run { server in
            let first = try #require(try await server.addActivity(as: "alice", text: "one")["id"].string)
            let second = try #require(try await server.addActivity(as: "alice", text: "two")["id"].string)
            let made = try await server.api(
                .POST, "/feeds/comments/batch", as: "bob",
                json: comments([comment(first, "a"), comment(second, "b", extra: #","id":"bob-b""#), comment(first, "c")]))
            #expect(made.status == 201, "\(made.text)")
            let list = made.body["comments"].array
            #expect(list.map { $0["text"].string } == ["a", "b", "c"] && list.allSatisfy { $0["user"]["id"].string == "bob" })
            #expect(list[1]["id"].string == "bob-b" && list[1]["object_id"].string == second)
            #expect(try await server.number("SELECT comment_count FROM activities WHERE id = \(first)") == 2)
            // A reply in the same batch as its parent's siblings, to a comment made before.
            let reply = try await server.api(
                .POST, "/feeds/comments/batch", as: "carol", json: comments([#"{"parent_id":"bob-b","comment":"re"}"#]))
            #expect(reply.status == 201 && reply.body["comments"][0]["parent_id"].string == "bob-b", "\(reply.text)")
            // The server adds for the users it names.
            let byServer = try await server.api(
                .POST, "/feeds/comments/batch", as: nil,
                json: comments([comment(first, "x", extra: #","user_id":"dave""#), comment(first, "y", extra: #","user_id":"erin""#)]))
            #expect(byServer.body["comments"].array.compactMap { $0["user"]["id"].string } == ["dave", "erin"], "\(byServer.text)")
        }
    }

    /// A refusal anywhere in the batch writes none of it and names its item; and the bounds.
    @Test func aRefusedBatchWritesNothing() async throws {
        try await TestServer.run { server in
            let open = try #require(try await server.addActivity(as: "alice")["id"].string)
            let hidden = try #require(try await server.addActivity(as: "alice", extra: #""visibility":"private""#)["id"].string)
            expectAPIError(
                try await server.api(.POST, "/feeds/comments/batch", as: "mallory", json: comments([comment(open, "ok"), comment(hidden, "no")])),
                status: 404, code: 16)
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/comments/batch", as: "mallory",
                    json: comments([comment(open, "ok"), comment(open, "twice", extra: #","id":"same""#), comment(open, "again", extra: #","id":"same""#)])),
                status: 409, code: 4, field: "comments[2].id")
            expectAPIError(
                try await server.api(.POST, "/feeds/comments/batch", as: "mallory", json: comments([comment(open, "ok"), comment(open, "")])),
                status: 400, code: 4, field: "comments[1].comment")
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/comments/batch", as: "mallory", json: comments([comment(open, "ok", extra: #","user_id":"alice""#)])),
                status: 403, code: 17)
            expectAPIError(try await server.api(.POST, "/feeds/comments/batch", as: "mallory", json: comments([])), status: 400, code: 4)
            let many = Array(repeating: comment(open, "spam"), count: 101)
            expectAPIError(try await server.api(.POST, "/feeds/comments/batch", as: "mallory", json: comments(many)), status: 400, code: 4)
            let deep = comments([#"{"parent_id":"nope","comment":"x"}"#])
            expectAPIError(try await server.api(.POST, "/feeds/comments/batch", as: "mallory", json: deep), status: 404, code: 16)
            let uploads = comments([comment(open, "f", extra: #","attachment_uploads":[{"name":"a.png"}]"#)])
            let refused = try await server.api(.POST, "/feeds/comments/batch", as: "mallory", json: uploads)
            #expect(refused.status == 400, "\(refused.text)")
            #expect(try await server.number("SELECT count(*)::int FROM comments WHERE user_id = 'mallory'") == 0)
            #expect(try await server.number("SELECT comment_count FROM activities WHERE id = \(open)") == 0)
            // A full batch of 100 is taken.
            let full = try await server.api(
                .POST, "/feeds/comments/batch", as: "bob", json: comments(Array(repeating: comment(open, "ok"), count: 100)))
            #expect(full.status == 201 && full.body["comments"].array.count == 100, "\(full.text.prefix(300))")
        }
    }

    @Test func oneUsersReactionsAcrossActivitiesAndComments() async throws {
        try await TestServer.run { server in
            var ids: [String] = []
            for n in 0..<3 { ids.append(try #require(try await server.addActivity(as: "alice", text: "p\(n)")["id"].string)) }
            let hidden = try #require(try await server.addActivity(as: "alice", extra: #""visibility":"private""#)["id"].string)
            for id in ids {
                #expect(try await server.api(.POST, "/feeds/activities/\(id)/reactions", as: "bob", json: #"{"type":"like"}"#).status == 201)
                _ = try await server.api(.POST, "/feeds/activities/\(id)/reactions", as: "carol", json: #"{"type":"like"}"#)
            }
            _ = try await server.api(.POST, "/feeds/activities/\(ids[0])/reactions", as: "bob", json: #"{"type":"wow"}"#)
            _ = try await server.api(.POST, "/feeds/activities/\(hidden)/reactions", as: "alice", json: #"{"type":"like"}"#)
            let asked = (ids + [hidden, "missing"]).map { "\"\($0)\"" }.joined(separator: ",")
            let bobs = try await server.api(
                .POST, "/feeds/activities/reactions/query", as: "bob", json: #"{"activity_ids":[\#(asked)],"limit":3}"#)
            #expect(bobs.status == 201, "\(bobs.text)")
            var found = bobs.body["reactions"].array
            #expect(found.count == 3 && found.allSatisfy { $0["user"]["id"].string == "bob" })
            let next = try #require(bobs.body["next"].string)
            let rest = try await server.api(
                .POST, "/feeds/activities/reactions/query", as: "bob", json: #"{"activity_ids":[\#(asked)],"limit":3,"next":"\#(next)"}"#)
            found += rest.body["reactions"].array
            #expect(found.count == 4 && rest.body["next"] == .null, "\(rest.text)")
            #expect(Set(found.compactMap { $0["activity_id"].string }) == Set(ids))
            let wows = try await server.api(
                .POST, "/feeds/activities/reactions/query", as: "bob",
                json: #"{"activity_ids":[\#(asked)],"filter":{"reaction_type":"wow"}}"#)
            #expect(wows.body["reactions"].array.map { $0["activity_id"].string } == [ids[0]], "\(wows.text)")
            // The server asks for a user by user_id; a user may not ask for another's, nor the hidden one's.
            let carols = try await server.api(
                .POST, "/feeds/activities/reactions/query", as: nil, json: #"{"activity_ids":[\#(asked)],"user_id":"carol"}"#)
            #expect(carols.body["reactions"].array.count == 3, "\(carols.text)")
            let alices = try await server.api(
                .POST, "/feeds/activities/reactions/query", as: nil, json: #"{"activity_ids":["\#(hidden)"],"user_id":"alice"}"#)
            #expect(alices.body["reactions"].array.count == 1)
            let peek = try await server.api(
                .POST, "/feeds/activities/reactions/query", as: "mallory", json: #"{"activity_ids":["\#(hidden)"],"user_id":"alice"}"#)
            #expect(peek.status == 403, "\(peek.text)")
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/activities/reactions/query", as: "mallory",
                    json: #"{"activity_ids":["\#(ids[0])"],"filter":{"user_id":"bob"}}"#), status: 400, code: 4,
                field: "filter.user_id")

            // Comments the same way.
            let made = try await server.api(
                .POST, "/feeds/comments/batch", as: "alice", json: comments([comment(ids[0], "c1"), comment(ids[1], "c2")]))
            let commentIDs = made.body["comments"].array.compactMap { $0["id"].string }
            for id in commentIDs {
                #expect(try await server.api(.POST, "/feeds/comments/\(id)/reactions", as: "bob", json: #"{"type":"like"}"#).status == 201)
            }
            let onComments = try await server.api(
                .POST, "/feeds/comments/reactions/query", as: "bob",
                json: #"{"comment_ids":["\#(commentIDs[0])","\#(commentIDs[1])","nope"]}"#)
            #expect(onComments.status == 201, "\(onComments.text)")
            let reactions = onComments.body["reactions"].array
            #expect(Set(reactions.compactMap { $0["comment_id"].string }) == Set(commentIDs))
            #expect(Set(reactions.compactMap { $0["activity_id"].string }) == [ids[0], ids[1]])
        }
    }

    @Test func hostileBatchQueriesAreRefused() async throws {
        try await TestServer.run { server in
            let tooMany = (0...100).map { "\"a\($0)\"" }.joined(separator: ",")
            for (path, field) in [("/feeds/activities/reactions/query", "activity_ids"), ("/feeds/comments/reactions/query", "comment_ids")] {
                expectAPIError(try await server.api(.POST, path, as: "bob", json: #"{"\#(field)":[]}"#), status: 400, code: 4)
                expectAPIError(try await server.api(.POST, path, as: "bob", json: #"{"\#(field)":[\#(tooMany)]}"#), status: 400, code: 4)
                let long = String(repeating: "x", count: 300)
                expectAPIError(try await server.api(.POST, path, as: "bob", json: #"{"\#(field)":["\#(long)"]}"#), status: 400, code: 4)
                expectAPIError(try await server.api(.POST, path, as: nil, json: #"{"\#(field)":["a"]}"#), status: 400, code: 4, field: "user_id")
                expectAPIError(
                    try await server.api(.POST, path, as: "bob", json: #"{"\#(field)":["a"],"filter":{"text":"x"}}"#), status: 400, code: 4)
                expectAPIError(
                    try await server.api(.POST, path, as: "bob", json: #"{"\#(field)":["a"],"next":"garbage"}"#), status: 400, code: 4)
                let none = try await server.api(.POST, path, as: "bob", json: #"{"\#(field)":["a","a","b"]}"#)
                #expect(none.status == 201 && none.body["reactions"].array.isEmpty, "\(none.text)")
            }
        }
    }
}
