import FeedsCore
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

/// Reactions to activities through the real server: what activities carry of them in every read,
/// exact counts under contention, pages, and what a hostile client sends.
@Suite struct ReactionTests {
    @Test func aReactionIsCountedGroupedAndShownAsTheReadersOwn() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice", text: "react to me")["id"].string)
            let like = try await server.react(id, "like", as: "bob", extra: #""custom":{"emoji":"👍"}"#)
            #expect(like.status == 201, "\(like.text)")
            #expect(like.body["reaction"]["type"].string == "like" && like.body["reaction"]["user"]["id"].string == "bob")
            #expect(like.body["reaction"]["activity_id"].string == id && like.body["reaction"]["custom"]["emoji"].string == "👍")
            let activity = like.body["activity"]
            #expect(activity["reaction_count"].int == 1 && activity["reaction_groups"]["like"]["count"].int == 1)
            #expect(activity["own_reactions"].array.map { $0["type"].string } == ["like"])
            #expect(activity["latest_reactions"].array.count == 1)

            // The same reaction again is the one stored, its custom data replaced.
            let again = try await server.react(id, "like", as: "bob", extra: #""custom":{"emoji":"🎉"}"#)
            #expect(again.status == 201 && again.body["activity"]["reaction_count"].int == 1, "\(again.text)")
            #expect(again.body["reaction"]["custom"]["emoji"].string == "🎉")
            #expect(try await server.react(id, "heart", as: "carl").status == 201)

            // Every read carries them: a feed page, QueryActivities, GetActivity; own ones are the reader's.
            let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "bob", json: "{}")
            let read = try #require(page.body["activities"].array.first)
            #expect(read["reaction_count"].int == 2)
            #expect(read["reaction_groups"]["like"]["count"].int == 1 && read["reaction_groups"]["heart"]["count"].int == 1)
            #expect(read["reaction_groups"]["heart"]["first_reaction_at"].int != nil)
            #expect(read["latest_reactions"].array.map { $0["type"].string } == ["heart", "like"])
            #expect(read["own_reactions"].array.map { $0["user"]["id"].string } == ["bob"])
            // A server read naming a user carries that user's own reactions.
            let forBob = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: nil, json: #"{"user_id":"bob"}"#)
            #expect(forBob.body["activities"][0]["own_reactions"].array.map { $0["user"]["id"].string } == ["bob"], "\(forBob.text)")
            let bare = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: nil, json: "{}")
            #expect(bare.body["activities"][0]["own_reactions"].array.isEmpty && bare.body["activities"][0]["reaction_count"].int == 2)
            let byAlice = try await server.api(.GET, "/feeds/activities/\(id)", as: "alice")
            #expect(byAlice.body["activity"]["reaction_count"].int == 2 && byAlice.body["activity"]["own_reactions"].array.isEmpty)
            let queried = try await server.api(
                .POST, "/feeds/activities/query", as: "carl", json: #"{"filter":{"user_id":"alice"}}"#)
            #expect(queried.body["activities"][0]["own_reactions"].array.map { $0["type"].string } == ["heart"], "\(queried.text)")

            // Removing it answers the reaction; removing it again is 404.
            let removed = try await server.api(.DELETE, "/feeds/activities/\(id)/reactions/like", as: "bob")
            #expect(removed.status == 200 && removed.body["reaction"]["type"].string == "like", "\(removed.text)")
            #expect(removed.body["activity"]["reaction_count"].int == 1 && removed.body["activity"]["reaction_groups"]["like"] == .null)
            expectAPIError(try await server.api(.DELETE, "/feeds/activities/\(id)/reactions/like", as: "bob"), status: 404, code: 16)
        }
    }

    @Test func enforceUniqueReplacesTheUsersOtherReactions() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            #expect(try await server.react(id, "like", as: "bob").status == 201)
            #expect(try await server.react(id, "wow", as: "bob").status == 201)
            let unique = try await server.react(id, "heart", as: "bob", extra: #""enforce_unique":true"#)
            #expect(unique.status == 201, "\(unique.text)")
            #expect(unique.body["activity"]["own_reactions"].array.map { $0["type"].string } == ["heart"])
            #expect(unique.body["activity"]["reaction_count"].int == 1)
            #expect(unique.body["activity"]["reaction_groups"].object?.keys.sorted() == ["heart"])
        }
    }

    /// 64 users react at once (each twice), then half of them remove theirs at once: the counts
    /// on the activity are exact.
    @Test func countsAreExactUnderContention() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let users = (0..<64).map { "fan\($0)" }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in users + users {
                    group.addTask {
                        let reply = try await server.react(id, "like", as: user)
                        #expect(reply.status == 201, "\(reply.text)")
                    }
                }
                try await group.waitForAll()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in users.prefix(32) {
                    group.addTask {
                        let reply = try await server.api(.DELETE, "/feeds/activities/\(id)/reactions/like", as: user)
                        #expect(reply.status == 200, "\(reply.text)")
                    }
                }
                try await group.waitForAll()
            }
            let read = try await server.api(.GET, "/feeds/activities/\(id)", as: "alice")
            #expect(read.body["activity"]["reaction_count"].int == 32)
            #expect(read.body["activity"]["reaction_groups"]["like"]["count"].int == 32)
            #expect(try await server.number("SELECT count(*)::int FROM activity_reactions WHERE activity_id = \(id)") == 32)
        }
    }

    @Test func queryReactionsFiltersAndPagesExactly() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            for user in 0..<8 {
                for type in ["like", "heart", "wow"] { #expect(try await server.react(id, type, as: "u\(user)").status == 201) }
            }
            for sort in ["", #","sort":[{"field":"created_at","direction":1}]"#] {
                var seen: [String] = []
                var next: String?
                repeat {
                    let cursor = next.map { #","next":"\#($0)""# } ?? ""
                    let page = try await server.api(
                        .POST, "/feeds/activities/\(id)/reactions/query", as: "bob", json: #"{"limit":5\#(sort)\#(cursor)}"#)
                    #expect(page.status == 201, "\(page.text)")
                    seen += page.body["reactions"].array.map { "\($0["user"]["id"].string ?? "") \($0["type"].string ?? "")" }
                    next = page.body["next"].string
                } while next != nil
                #expect(seen.count == 24 && Set(seen).count == 24)
            }
            let likes = try await server.api(
                .POST, "/feeds/activities/\(id)/reactions/query", as: "bob", json: #"{"filter":{"reaction_type":"like"}}"#)
            #expect(likes.body["reactions"].array.count == 8)
            let mine = try await server.api(
                .POST, "/feeds/activities/\(id)/reactions/query", as: "bob",
                json: #"{"filter":{"user_id":{"$in":["u1","u2"]},"reaction_type":{"$in":["wow"]}}}"#)
            #expect(mine.body["reactions"].array.compactMap { $0["user"]["id"].string }.sorted() == ["u1", "u2"])

            let query = "/feeds/activities/\(id)/reactions/query"
            expectAPIError(try await server.api(.POST, query, as: "bob", json: #"{"filter":{"score":1}}"#), status: 400, code: 4, field: "filter.score")
            expectAPIError(try await server.api(.POST, query, as: "bob", json: #"{"limit":101}"#), status: 400, code: 4, field: "limit")
            expectAPIError(try await server.api(.POST, query, as: "bob", json: #"{"next":"bm90IGEgY3Vyc29y"}"#), status: 400, code: 4, field: "next")
            expectAPIError(
                try await server.api(.POST, query, as: "bob", json: #"{"filter":{"activity_id":"another"}}"#), status: 400, code: 4,
                field: "filter.activity_id")
            expectAPIError(
                try await server.api(.POST, query, as: "bob", json: #"{"sort":[{"field":"type"}]}"#), status: 400, code: 4, field: "sort")
        }
    }

    /// Other users' private activities, deleted and missing ones, other users' names, and bad
    /// types: refused in Stream's error shape, with nothing written.
    @Test func hostileReactionsAreRefusedAndWriteNothing() async throws {
        try await TestServer.run { server in
            let hidden = try #require(try await server.addActivity(as: "alice", extra: #""visibility":"private""#)["id"].string)
            expectAPIError(try await server.react(hidden, "like", as: "mallory"), status: 404, code: 16)
            expectAPIError(
                try await server.api(.POST, "/feeds/activities/\(hidden)/reactions/query", as: "mallory", json: "{}"), status: 404, code: 16)
            #expect(try await server.react(hidden, "like", as: "alice").status == 201)
            expectAPIError(try await server.api(.DELETE, "/feeds/activities/\(hidden)/reactions/like", as: "mallory"), status: 404, code: 16)
            expectAPIError(try await server.react("no-such-activity", "like", as: "bob"), status: 404, code: 16)

            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let path = "/feeds/activities/\(id)/reactions"
            expectAPIError(try await server.api(.POST, path, as: "mallory", json: #"{"type":"like","user_id":"bob"}"#), status: 403, code: 17)
            expectAPIError(try await server.api(.POST, path, as: nil, json: #"{"type":"like"}"#), status: 400, code: 4, field: "user_id")
            for type in ["", "has space", String(repeating: "x", count: 65), "ünï", "a/b"] {
                let body = try JSONEncoder().encode(["type": type])
                expectAPIError(
                    try await server.api(.POST, path, as: "bob", json: String(decoding: body, as: UTF8.self)), status: 400, code: 4)
            }
            expectAPIError(try await server.api(.DELETE, "\(path)/has%20space", as: "bob"), status: 400, code: 4)
            expectAPIError(
                try await server.api(.POST, path, as: "bob", json: #"{"type":"like","target_feeds":["user:bob"]}"#), status: 400, code: 4,
                field: "target_feeds")
            expectAPIError(try await server.api(.POST, path, as: "bob", json: #"{"custom":{}}"#), status: 400, code: 4)
            expectAPIError(try await server.api(.POST, path, as: "bob", json: #"{"type":"like","custom":[1]}"#), status: 400, code: 4)
            #expect(try await server.number("SELECT count(*)::int FROM activity_reactions WHERE activity_id = \(id)") == 0)

            // The server reacts for any user, on any activity; a deleted activity takes its reactions.
            #expect(try await server.api(.POST, path, as: nil, json: #"{"type":"like","user_id":"bob"}"#).status == 201)
            #expect(try await server.api(.POST, "/feeds/activities/\(hidden)/reactions", as: nil, json: #"{"type":"x","user_id":"bob"}"#).status == 201)
            #expect(try await server.api(.DELETE, "/feeds/activities/\(id)", as: "alice", query: "&hard_delete=true").status == 200)
            #expect(try await server.number("SELECT count(*)::int FROM activity_reactions WHERE activity_id = \(id)") == 0)
            let softly = try #require(try await server.addActivity(as: "alice")["id"].string)
            #expect(try await server.api(.DELETE, "/feeds/activities/\(softly)", as: "alice").status == 200)
            expectAPIError(try await server.react(softly, "like", as: "bob"), status: 404, code: 16)
        }
    }
}

extension TestServer {
    /// `POST /feeds/activities/{id}/reactions` as `user`.
    func react(_ activityID: String, _ type: String, as user: String, extra: String = "") async throws -> Reply {
        try await api(
            .POST, "/feeds/activities/\(activityID)/reactions", as: user,
            json: #"{"type":"\#(type)"\#(extra.isEmpty ? "" : "," + extra)}"#)
    }
}
