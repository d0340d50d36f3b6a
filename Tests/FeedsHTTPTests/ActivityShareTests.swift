import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// Shares (`parent_id`: the parent carried, its `share_count` kept through deletes, restores and
/// moves) and mentions (`mentioned_user_ids` resolved to `mentioned_users`).
@Suite struct ActivityShareTests {
    func shareCount(_ server: TestServer, _ id: String) async throws -> Int? {
        try await server.api(.GET, "/feeds/activities/\(id)", as: nil).body["activity"]["share_count"].int
    }

    @Test func aShareCarriesItsParentAndCountsOnIt() async throws {
        try await TestServer.run { server in
            let original = try #require(try await server.addActivity(as: "alice", text: "original")["id"].string)
            let share = try await server.addActivity(as: "bob", text: "look", extra: #""parent_id":"\#(original)""#)
            let shareID = try #require(share["id"].string)
            #expect(share["parent"]["id"].string == original && share["parent"]["text"].string == "original", "\(share)")
            #expect(try await shareCount(server, original) == 1)
            // Every read of the share carries the parent, with the reader's own fields.
            #expect(try await server.react(original, "like", as: "carol").status == 201)
            let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/bob", as: "carol", json: "{}")
            let read = try #require(page.body["activities"].array.first)
            #expect(read["parent"]["id"].string == original && read["parent"]["own_reactions"].array.count == 1, "\(page.text)")
            #expect(read["parent"]["parent"] == .null && read["share_count"].int == 0)
            let query = try await server.api(
                .POST, "/feeds/activities/query", as: "carol", json: #"{"filter":{"id":"\#(shareID)"}}"#)
            #expect(query.body["activities"][0]["parent"]["share_count"].int == 1, "\(query.text)")
            // A share of the share counts on the share, not on the original.
            _ = try await server.addActivity(as: "carol", text: "again", extra: #""parent_id":"\#(shareID)""#)
            #expect(try await shareCount(server, shareID) == 1)
            #expect(try await shareCount(server, original) == 1)
            // Deleting the share takes its count; restoring gives it back; a hard delete takes it for good.
            #expect(try await server.api(.DELETE, "/feeds/activities/\(shareID)", as: "bob").status == 200)
            #expect(try await shareCount(server, original) == 0)
            let restored = try await server.api(.POST, "/feeds/activities/\(shareID)/restore", as: "bob", json: "{}")
            #expect(restored.status == 201, "\(restored.text)")
            #expect(try await shareCount(server, original) == 1)
            #expect(try await server.api(.DELETE, "/feeds/activities/\(shareID)", as: "bob", query: "&hard_delete=true").status == 200)
            #expect(try await shareCount(server, original) == 0)
        }
    }

    @Test func updatesMoveAndTakeOffAShare() async throws {
        try await TestServer.run { server in
            let first = try #require(try await server.addActivity(as: "alice", text: "first")["id"].string)
            let second = try #require(try await server.addActivity(as: "alice", text: "second")["id"].string)
            let mine = try #require(try await server.addActivity(as: "bob", text: "mine")["id"].string)
            let path = "/feeds/activities/\(mine)"
            let on = try await server.api(.PATCH, path, as: "bob", json: #"{"set":{"parent_id":"\#(first)"}}"#)
            #expect(on.status == 200 && on.body["activity"]["parent"]["id"].string == first, "\(on.text)")
            // A full update keeps the share; a partial one moves it, then takes it off.
            let edited = try await server.api(.PUT, path, as: "bob", json: #"{"text":"edited"}"#)
            #expect(edited.body["activity"]["parent"]["id"].string == first, "\(edited.text)")
            let moved = try await server.api(.PATCH, path, as: "bob", json: #"{"set":{"parent_id":"\#(second)"}}"#)
            #expect(moved.body["activity"]["parent"]["id"].string == second, "\(moved.text)")
            #expect(try await shareCount(server, first) == 0)
            #expect(try await shareCount(server, second) == 1)
            let off = try await server.api(.PATCH, path, as: "bob", json: #"{"unset":["parent_id"]}"#)
            #expect(off.status == 200 && off.body["activity"]["parent"] == .null, "\(off.text)")
            #expect(try await shareCount(server, second) == 0)
        }
    }

    /// A share of what the poster may not read, of nothing, of itself: refused, nothing written.
    /// A reader who may not read the parent reads the share without it; events never carry it.
    @Test func nobodySharesOrSeesWhatTheyMayNotRead() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice", visibility: "followers")
            let secret = try #require(try await server.addActivity(as: "alice", text: "for followers")["id"].string)
            let stranger = try await server.api(
                .POST, "/feeds/activities", as: "mallory",
                json: #"{"type":"post","feeds":["user:mallory"],"text":"leak","parent_id":"\#(secret)"}"#)
            let refused = expectAPIError(stranger, status: 400, code: 4, field: "parent_id")
            #expect(!"\(refused)".contains("for followers"))
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/activities", as: "mallory",
                    json: #"{"type":"post","feeds":["user:mallory"],"text":"x","parent_id":"no-such-activity"}"#),
                status: 400, code: 4, field: "parent_id")
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/activities", as: "mallory",
                    json: #"{"id":"me","type":"post","feeds":["user:mallory"],"text":"x","parent_id":"me"}"#),
                status: 400, code: 4, field: "parent_id")
            let mine = try #require(try await server.addActivity(as: "mallory", text: "mine")["id"].string)
            expectAPIError(
                try await server.api(.PATCH, "/feeds/activities/\(mine)", as: "mallory", json: #"{"set":{"parent_id":"\#(mine)"}}"#),
                status: 400, code: 4, field: "set.parent_id")
            expectAPIError(
                try await server.api(.PATCH, "/feeds/activities/\(mine)", as: "mallory", json: #"{"set":{"parent_id":"\#(secret)"}}"#),
                status: 400, code: 4, field: "set.parent_id")
            expectAPIError(
                try await server.api(
                    .PATCH, "/feeds/activities/batch/partial", as: "mallory",
                    json: #"{"changes":[{"activity_id":"\#(mine)","set":{"parent_id":"\#(secret)"}}]}"#),
                status: 400, code: 4, field: "changes[0].set.parent_id")
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/activities/batch", as: "mallory",
                    json: #"{"activities":[{"type":"post","feeds":["user:mallory"],"text":"y","parent_id":"\#(secret)"}]}"#),
                status: 400, code: 4, field: "activities[0].parent_id")
            expectAPIError(
                try await server.api(.PATCH, "/feeds/activities/\(mine)", as: "mallory", json: #"{"set":{"parent_id":7}}"#),
                status: 400, code: 4, field: "set.parent_id")
            #expect(try await shareCount(server, secret) == 0)
            let malloryPage = try await server.api(.POST, "/feeds/feed_groups/user/feeds/mallory", as: "mallory", json: "{}")
            #expect(malloryPage.body["activities"].array.count == 1, "\(malloryPage.text)")

            // A follower shares it into their public feed: strangers read the share, not the parent.
            try await server.createFeed("timeline:fred", owner: "fred")
            try await server.createFeed("user:fred", owner: "fred")
            #expect(try await server.follow("timeline:fred", "user:alice", as: nil, extra: #""status":"accepted""#).status == 201)
            let (socket, inbox, connection) = try await server.connected("mallory")
            try await server.watch("user:fred", as: "mallory", connectionID: connection)
            let share = try await server.addActivity(as: "fred", text: "see this", extra: #""parent_id":"\#(secret)""#)
            #expect(share["parent"]["text"].string == "for followers", "\(share)")
            let event = try await inbox.event()
            #expect(event["type"].string == "feeds.activity.added" && event["activity"]["parent"] == .null, "\(event)")
            #expect(!"\(event)".contains("for followers"))
            try await socket.hangUp()
            let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/fred", as: "mallory", json: "{}")
            #expect(page.body["activities"][0]["text"].string == "see this", "\(page.text)")
            #expect(page.body["activities"][0]["parent"] == .null && !page.text.contains("for followers"), "\(page.text)")
            let byID = try await server.api(.GET, "/feeds/activities/\(try #require(share["id"].string))", as: "mallory")
            #expect(byID.status == 200 && !byID.text.contains("for followers"), "\(byID.text)")
        }
    }

    @Test func mentionsAreTheUsersTheyName() async throws {
        try await TestServer.run { server in
            for user in ["bob", "carol"] { try await server.createFeed("user:\(user)", owner: user) }
            let made = try await server.addActivity(
                as: "alice", text: "hi @bob", extra: #""mentioned_user_ids":["bob","nobody","bob"]"#)
            let id = try #require(made["id"].string)
            #expect(made["mentioned_users"].array.compactMap { $0["id"].string } == ["bob"], "\(made)")
            #expect(made["mentioned_users"][0]["created_at"] != .null)
            // An edit names others; with handle_mention_notifications the new ones are told.
            let edited = try await server.api(
                .PATCH, "/feeds/activities/\(id)", as: "alice",
                json: #"{"set":{"mentioned_user_ids":["bob","carol"]},"handle_mention_notifications":true}"#)
            #expect(edited.body["activity"]["mentioned_users"].array.compactMap { $0["id"].string } == ["bob", "carol"], "\(edited.text)")
            let bell = try await server.api(.POST, "/feeds/feed_groups/notification/feeds/carol", as: "carol", json: "{}")
            #expect(bell.body["aggregated_activities"][0]["activities"][0]["type"].string == "mention", "\(bell.text)")
            let bobs = try await server.api(.POST, "/feeds/feed_groups/notification/feeds/bob", as: "bob", json: "{}")
            #expect(bobs.body["aggregated_activities"].array.isEmpty, "bob was named before: \(bobs.text)")
            let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "carol", json: "{}")
            #expect(page.body["activities"][0]["mentioned_users"].array.count == 2, "\(page.text)")
            let cleared = try await server.api(.PUT, "/feeds/activities/\(id)", as: "alice", json: #"{"text":"nobody"}"#)
            #expect(cleared.body["activity"]["mentioned_users"].array.isEmpty, "\(cleared.text)")
            // Too many, a wrong type, an empty id.
            let many = (0...25).map { #""u\#($0)""# }.joined(separator: ",")
            for body in [#""mentioned_user_ids":[\#(many)]"#, #""mentioned_user_ids":[7]"#, #""mentioned_user_ids":[""]"#] {
                let reply = try await server.api(
                    .POST, "/feeds/activities", as: "alice", json: #"{"type":"post","feeds":["user:alice"],"text":"x",\#(body)}"#)
                expectAPIError(reply, status: 400, code: 4)
            }
            expectAPIError(
                try await server.api(.PATCH, "/feeds/activities/\(id)", as: "alice", json: #"{"set":{"mentioned_user_ids":"bob"}}"#),
                status: 400, code: 4, field: "set.mentioned_user_ids")
        }
    }
}
