import FeedsCore
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

@Suite struct ActivityWriteTests {
    @Test func addThenGetReturnsEveryRequiredField() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("room")
            let activity = try await server.addActivity(
                as: "alice", feeds: ["user:alice", "room:bob"],
                extra:
                    #""custom":{"mood":"happy","n":3},"attachments":[{"type":"image","image_url":"https://example.com/a.png","custom":{}}]"#
            )
            for field in requiredActivityFields { #expect(!activity[field].isNull, "missing \(field)") }
            for field in requiredUserFields { #expect(!activity["user"][field].isNull, "missing user.\(field)") }
            #expect(activity["user"]["id"].string == "alice")
            #expect(activity["feeds"].array.compactMap(\.string) == ["user:alice", "room:bob"])
            #expect(activity["custom"]["mood"].string == "happy")
            #expect(activity["attachments"][0]["image_url"].string == "https://example.com/a.png")
            #expect(activity["visibility"].string == "public")
            #expect(activity["created_at"].time != nil)

            let id = try #require(activity["id"].string)
            let got = try await server.api(.GET, "/feeds/activities/\(id)", as: "bob")
            #expect(got.status == 200)
            #expect(got.body["activity"] == activity)
            #expect(got.body["duration"].string != nil)
        }
    }

    /// A create writes its user, feeds and rows in one statement; a user's first activities sent
    /// at once race to create the user and their feeds, and every one must still succeed whole.
    @Test func aNewUsersFirstActivitiesSentAtOnceAllSucceed() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("room")
            let ids = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        let activity = try await server.addActivity(
                            as: "newcomer", feeds: ["user:newcomer", "room:t\(index % 2)"], extra: #""custom":{"i":\#(index)}"#)
                        #expect(activity["user"]["id"].string == "newcomer")
                        #expect(activity["user"]["role"].string == "user")
                        #expect(activity["custom"]["i"].int == index)
                        return activity["id"].string
                    }
                }
                return try await group.reduce(into: [String]()) { ids, id in id.map { ids.append($0) } }
            }
            #expect(Set(ids).count == 16)
            let counts = try await server.database.query(
                """
                SELECT (SELECT count(*) FROM users WHERE id = 'newcomer'), (SELECT count(*) FROM activities),
                       (SELECT count(*) FROM activity_feeds), (SELECT count(*) FROM feeds)
                """, logger: TestDatabase.logger)
            for try await (users, activities, rows, feeds) in counts.decode((Int, Int, Int, Int).self) {
                #expect(users == 1 && activities == 16 && rows == 32 && feeds == 3)
            }
        }
    }

    @Test func clientIDIsHonouredAndADuplicateIsAConflict() async throws {
        try await TestServer.run { server in
            let activity = try await server.addActivity(as: "alice", extra: #""id":"my-id-1""#)
            #expect(activity["id"].string == "my-id-1")
            let again = try await server.api(
                .POST, "/feeds/activities", as: "alice", json: #"{"id":"my-id-1","type":"post","feeds":["user:alice"]}"#)
            expectAPIError(again, status: 409, code: 4, field: "id")
        }
    }

    @Test(arguments: [
        (#"{"feeds":["user:a"]}"#, "type"),
        (#"{"type":"post","feeds":[]}"#, "feeds"),
        (#"{"type":"post","feeds":["no-colon"]}"#, "feeds"),
        (#"{"type":"post","feeds":["user:a b"]}"#, "feeds"),
        (#"{"type":"\#(String(repeating: "t", count: 256))","feeds":["user:a"]}"#, "type"),
        (#"{"type":"post","feeds":[\#((0..<26).map { "\"user:f\($0)\"" }.joined(separator: ","))]}"#, "feeds"),
        (#"{"type":"post","feeds":["user:a"],"visibility":"everyone"}"#, "visibility"),
        (#"{"type":"post","feeds":["user:a"],"visibility":"tag"}"#, "visibility_tag"),
        (#"{"type":5,"feeds":["user:a"]}"#, "type"),
    ])
    func invalidActivitiesAreRefusedNamingTheField(body: String, field: String) async throws {
        try await TestServer.run { server in
            let reply = try await server.api(.POST, "/feeds/activities", as: "a", json: body)
            expectAPIError(reply, status: 400, code: 4, field: field)
            let rows = try await server.database.query("SELECT count(*) FROM activities", logger: TestDatabase.logger)
            for try await count in rows.decode(Int.self) { #expect(count == 0) }
        }
    }

    @Test func theServerMustNameTheUserAndAUserOnlyActsAsItself() async throws {
        try await TestServer.run { server in
            let missing = try await server.api(.POST, "/feeds/activities", as: nil, json: #"{"type":"post","feeds":["user:a"]}"#)
            expectAPIError(missing, status: 400, code: 4, field: "user_id")
            let spoof = try await server.api(
                .POST, "/feeds/activities", as: "mallory", json: #"{"type":"post","feeds":["user:a"],"user_id":"alice"}"#)
            expectAPIError(spoof, status: 403, code: 17)
            let byServer = try await server.api(
                .POST, "/feeds/activities", as: nil, json: #"{"type":"post","feeds":["user:a"],"user_id":"alice"}"#)
            #expect(byServer.status == 201)
            #expect(byServer.body["activity"]["user"]["id"].string == "alice")
        }
    }

    @Test func updateReplacesTheActivityForItsOwnerOrTheServerOnly() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("topic")
            let id = try #require(try await server.addActivity(as: "alice", extra: #""custom":{"a":1}"#)["id"].string)
            let stranger = try await server.api(.PUT, "/feeds/activities/\(id)", as: "bob", json: #"{"text":"hacked"}"#)
            expectAPIError(stranger, status: 403, code: 17)

            let owner = try await server.api(
                .PUT, "/feeds/activities/\(id)", as: "alice", json: #"{"text":"edited","feeds":["user:alice","topic:swift"]}"#)
            #expect(owner.status == 201, "\(owner.text)")
            let updated = owner.body["activity"]
            #expect(updated["text"].string == "edited")
            #expect(updated["custom"] == .object([:]))  // a full replace clears what was left out
            #expect(updated["feeds"].array.compactMap(\.string) == ["user:alice", "topic:swift"])
            #expect(updated["edited_at"].time != nil)

            let feed = try await server.api(.POST, "/feeds/feed_groups/topic/feeds/swift", as: "bob", json: "{}")
            #expect(feed.body["activities"][0]["id"].string == id)

            let byServer = try await server.api(.PUT, "/feeds/activities/\(id)", as: nil, json: #"{"text":"moderated"}"#)
            #expect(byServer.body["activity"]["text"].string == "moderated")
            let missing = try await server.api(.PUT, "/feeds/activities/nope", as: nil, json: #"{"text":"x"}"#)
            expectAPIError(missing, status: 404, code: 16)
        }
    }

    @Test func partialUpdateSetsAndUnsets() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice", extra: #""custom":{"keep":1,"drop":2}"#)["id"].string)
            let reply = try await server.api(
                .PATCH, "/feeds/activities/\(id)", as: "alice",
                json: #"{"set":{"text":"new text","custom.added":"yes"},"unset":["custom.drop"]}"#
            )
            #expect(reply.status == 200, "\(reply.text)")
            let activity = reply.body["activity"]
            #expect(activity["text"].string == "new text")
            #expect(activity["custom"] == .object(["keep": .number(1), "added": .string("yes")]))

            let bad = try await server.api(.PATCH, "/feeds/activities/\(id)", as: "alice", json: #"{"set":{"user_id":"bob"}}"#)
            expectAPIError(bad, status: 400, code: 4, field: "set.user_id")
            let empty = try await server.api(.PATCH, "/feeds/activities/\(id)", as: "alice", json: "{}")
            expectAPIError(empty, status: 400, code: 4)
            let stranger = try await server.api(.PATCH, "/feeds/activities/\(id)", as: "bob", json: #"{"set":{"text":"x"}}"#)
            expectAPIError(stranger, status: 403, code: 17)
        }
    }

    @Test func softAndHardDeletesBothLeaveA404() async throws {
        try await TestServer.run { server in
            let soft = try #require(try await server.addActivity(as: "alice")["id"].string)
            let hard = try #require(try await server.addActivity(as: "alice")["id"].string)
            expectAPIError(try await server.api(.DELETE, "/feeds/activities/\(soft)", as: "bob"), status: 403, code: 17)

            #expect(try await server.api(.DELETE, "/feeds/activities/\(soft)", as: "alice").status == 200)
            #expect(
                try await server.api(.DELETE, "/feeds/activities/\(hard)", as: "alice", query: "&hard_delete=true").status == 200)
            for id in [soft, hard] {
                expectAPIError(try await server.api(.GET, "/feeds/activities/\(id)", as: "alice"), status: 404, code: 16)
                expectAPIError(try await server.api(.DELETE, "/feeds/activities/\(id)", as: "alice"), status: 404, code: 16)
            }
            let rows = try await server.database.query(
                "SELECT id, deleted_at IS NOT NULL FROM activities ORDER BY id", logger: TestDatabase.logger
            )
            var stored: [String: Bool] = [:]
            for try await (id, deleted) in rows.decode((String, Bool).self) { stored[id] = deleted }
            #expect(stored == [soft: true])  // the hard delete removed the row, the soft one marked it
            let page = try await server.api(.POST, "/feeds/activities/query", as: "alice", json: "{}")
            #expect(page.body["activities"].array.isEmpty)
        }
    }

    @Test func batchDeleteChecksEveryOwnerBeforeDeletingAny() async throws {
        try await TestServer.run { server in
            let mine = try #require(try await server.addActivity(as: "alice")["id"].string)
            let theirs = try #require(try await server.addActivity(as: "bob")["id"].string)
            let refused = try await server.api(
                .POST, "/feeds/activities/delete", as: "alice", json: #"{"ids":["\#(mine)","\#(theirs)"]}"#)
            expectAPIError(refused, status: 403, code: 17)
            #expect(try await server.api(.GET, "/feeds/activities/\(mine)", as: "alice").status == 200)

            let deleted = try await server.api(
                .POST, "/feeds/activities/delete", as: nil, json: #"{"ids":["\#(mine)","\#(theirs)","ghost"]}"#)
            #expect(deleted.status == 201)
            #expect(Set(deleted.body["deleted_ids"].array.compactMap(\.string)) == [mine, theirs])

            let tooMany = (0...100).map { "\"a\($0)\"" }.joined(separator: ",")
            expectAPIError(
                try await server.api(.POST, "/feeds/activities/delete", as: nil, json: #"{"ids":[\#(tooMany)]}"#), status: 400,
                code: 4, field: "ids")
        }
    }

    @Test func fiftyConcurrentAddsStoreFiftyRows() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("room")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        try await server.addActivity(
                            as: "user\(index % 5)", feeds: ["room:one"], text: "n\(index)", byServer: true)
                    }
                }
                try await group.waitForAll()
            }
            let rows = try await server.database.query(
                "SELECT (SELECT count(*) FROM activities), (SELECT count(*) FROM activity_feeds WHERE feed = 'room:one'), (SELECT count(*) FROM users)",
                logger: TestDatabase.logger
            )
            for try await (activities, memberships, users) in rows.decode((Int, Int, Int).self) {
                #expect(activities == 50)
                #expect(memberships == 50)
                #expect(users == 5)
            }
        }
    }
}
