import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// Membership levels through the real server: the server keeps them; a member given one reads in
/// full the feed's activities tagged for it; every other reader of the feed gets their preview,
/// and nothing of their content by any path.
@Suite struct MembershipLevelTests {
    let levels = "/feeds/membership_levels"

    func create(_ server: TestServer, _ json: String, as user: String? = nil) async throws -> TestServer.Reply {
        try await server.api(.POST, levels, as: user, json: json)
    }

    func query(_ server: TestServer, _ json: String) async throws -> TestServer.Reply {
        try await server.api(.POST, levels + "/query", as: nil, json: json)
    }

    @Test func theServerKeepsLevels() async throws {
        try await TestServer.run { server in
            let made = try await create(
                server,
                #"{"id":"premium","name":"Premium","description":"QA","priority":100,"tags":["premium"],"custom":{"by":"alice"}}"#
            )
            #expect(made.status == 201, "\(made.text)")
            let level = made.body["membership_level"]
            #expect(level["id"].string == "premium" && level["name"].string == "Premium" && level["priority"].int == 100)
            #expect(level["tags"].array.compactMap(\.string) == ["premium"] && level["custom"]["by"].string == "alice")
            #expect(level["created_at"].int != nil && level["updated_at"].int != nil, "\(level)")
            expectAPIError(try await create(server, #"{"id":"premium","name":"Again"}"#), status: 409, code: 4, field: "id")
            expectAPIError(try await create(server, #"{"id":"mine","name":"Mine"}"#, as: "alice"), status: 403, code: 17)
            #expect(
                try await create(server, #"{"id":"inner-circle","name":"Inner","priority":200,"tags":["premium","inner"]}"#)
                    .status == 201)
            #expect(try await create(server, #"{"id":"free","name":"Free"}"#).status == 201)

            // Sorted by priority, a page at a time; filtered on tags, priority, id and name.
            let first = try await query(server, #"{"sort":[{"field":"priority","direction":-1}],"limit":2}"#)
            #expect(first.status == 201, "\(first.text)")
            #expect(first.body["membership_levels"].array.compactMap { $0["id"].string } == ["inner-circle", "premium"])
            let next = try #require(first.body["next"].string, "\(first.text)")
            let second = try await query(server, #"{"sort":[{"field":"priority","direction":-1}],"limit":2,"next":"\#(next)"}"#)
            #expect(second.body["membership_levels"].array.compactMap { $0["id"].string } == ["free"], "\(second.text)")
            #expect(second.body["next"].isNull, "\(second.text)")
            let tagged = try await query(server, #"{"filter":{"tags":{"$contains":"inner"}}}"#)
            #expect(tagged.body["membership_levels"].array.compactMap { $0["id"].string } == ["inner-circle"], "\(tagged.text)")
            let ranked = try await query(server, #"{"filter":{"priority":{"$gte":100},"name":{"$in":["Premium","Free"]}}}"#)
            #expect(ranked.body["membership_levels"].array.compactMap { $0["id"].string } == ["premium"], "\(ranked.text)")

            // Changed field by field; deleted once.
            let changed = try await server.api(
                .PATCH, levels + "/premium", as: nil, json: #"{"name":"Gold","tags":["gold","premium"]}"#)
            #expect(changed.status == 200, "\(changed.text)")
            #expect(
                changed.body["membership_level"]["name"].string == "Gold"
                    && changed.body["membership_level"]["priority"].int == 100)
            #expect(changed.body["membership_level"]["tags"].array.compactMap(\.string) == ["gold", "premium"])
            expectAPIError(try await server.api(.PATCH, levels + "/nope", as: nil, json: #"{"name":"x"}"#), status: 404, code: 16)
            expectAPIError(
                try await server.api(.PATCH, levels + "/premium", as: "alice", json: #"{"name":"x"}"#), status: 403, code: 17)
            #expect(try await server.api(.DELETE, levels + "/free", as: nil).status == 200)
            expectAPIError(try await server.api(.DELETE, levels + "/free", as: nil), status: 404, code: 16)
        }
    }

    @Test func hostileLevelsAreRefusedWhole() async throws {
        try await TestServer.run { server in
            let tooMany = (0...100).map { "\"t\($0)\"" }.joined(separator: ",")
            let deep = String(repeating: #"{"a":"#, count: 5000) + "1" + String(repeating: "}", count: 5000)
            for (body, field) in [
                (#"{"id":"a b","name":"x"}"#, "id"), (#"{"id":"ok","name":""}"#, "name"),
                (#"{"id":"ok","name":"x","tags":[\#(tooMany)]}"#, "tags"),
                (#"{"id":"ok","name":"x","tags":["\#(String(repeating: "t", count: 33))"]}"#, "tags"),
                (#"{"id":"ok","name":"x","tags":["a,b"]}"#, "tags"), (#"{"id":"ok","name":"x","priority":-1}"#, "priority"),
                (#"{"id":"ok","name":"x","custom":{"x":"\#(String(repeating: "x", count: 6000))"}}"#, "custom"),
            ] {
                let refused = try await create(server, body)
                #expect(refused.status == 400, "\(body.prefix(60)): \(refused.text)")
                #expect(refused.body["code"].int == 4 && refused.body["exception_fields"][field].string != nil, "\(refused.text)")
            }
            #expect(try await create(server, #"{"id":"ok","name":"x","custom":\#(deep)}"#).status == 400)
            #expect(try await create(server, #"{"id":"ok","name":"x","priority":99999999999}"#).status == 400)
            for body in [
                #"{"filter":{"secret":"x"}}"#, #"{"filter":{"priority":{"$regex":"x"}}}"#, #"{"filter":{"priority":1.5}}"#,
                #"{"sort":[{"field":"name"}]}"#, #"{"limit":101}"#, #"{"next":"not-a-cursor"}"#,
            ] {
                expectAPIError(try await query(server, body), status: 400, code: 4)
            }
            let listed = try await query(server, "{}")
            #expect(listed.body["membership_levels"].array.isEmpty, "nothing was made: \(listed.text)")
        }
    }

    /// Stream's Patreon case: the creator posts for a tier; its members read the post, the rest
    /// of the audience gets its preview, and nothing of its content leaks by another path.
    @Test func aTaggedActivityIsReadInFullOnlyByTheLevelsItIsFor() async throws {
        try await TestServer.run { server in
            #expect(try await create(server, #"{"id":"premium","name":"Premium","tags":["premium"]}"#).status == 201)
            #expect(try await create(server, #"{"id":"basic","name":"Basic","tags":["basic"]}"#).status == 201)
            try await server.createFeed("user:alice", owner: "alice", visibility: "visible")
            let path = "/feeds/feed_groups/user/feeds/alice/members"
            // Levels are given by the server only, and must exist.
            expectAPIError(
                try await server.api(
                    .PATCH, path, as: "alice",
                    json: #"{"operation":"upsert","members":[{"user_id":"bob","membership_level":"premium"}]}"#),
                status: 403, code: 17)
            expectAPIError(
                try await server.api(
                    .PATCH, path, as: nil,
                    json: #"{"operation":"upsert","members":[{"user_id":"bob","membership_level":"gold"}]}"#),
                status: 400, code: 4)
            #expect(try await server.number("SELECT count(*) FROM feed_members") == 0, "a refused change writes nothing")
            let given = try await server.api(
                .PATCH, path, as: nil,
                json:
                    #"{"operation":"upsert","members":[{"user_id":"bob","membership_level":"premium"},{"user_id":"dan","membership_level":"basic"}]}"#
            )
            #expect(given.status == 200, "\(given.text)")
            let bob = given.body["added"].array.first { $0["user"]["id"].string == "bob" }
            #expect(bob?["membership_level"]["id"].string == "premium" && bob?["membership_level"]["tags"][0].string == "premium")

            let post = try await server.api(
                .POST, "/feeds/activities", as: "alice",
                json:
                    #"{"type":"post","feeds":["user:alice"],"text":"secret","visibility":"tag","visibility_tag":"premium","custom":{"k":"v"}}"#
            )
            let id = try #require(post.body["activity"]["id"].string, "\(post.text)")

            func page(as user: String) async throws -> JSONValue {
                let read = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: user, json: "{}")
                #expect(read.status == 201, "\(read.text)")
                return read.body["activities"].array.first { $0["id"].string == id } ?? .null
            }
            for user in ["alice", "bob"] {
                let full = try await page(as: user)
                #expect(
                    full["preview"].bool == false && full["text"].string == "secret" && full["custom"]["k"].string == "v",
                    "\(user): \(full)")
            }
            for user in ["carol", "dan"] {
                let preview = try await page(as: user)
                #expect(
                    preview["preview"].bool == true && preview["text"].isNull && preview["custom"] == .object([:]),
                    "\(user): \(preview)")
                #expect(preview["visibility_tag"].string == "premium" && preview["user"]["id"].string == "alice")
                let got = try await server.api(.GET, "/feeds/activities/\(id)", as: user)
                #expect(got.body["activity"]["preview"].bool == true && got.body["activity"]["text"].isNull, "\(got.text)")
                let queried = try await server.api(
                    .POST, "/feeds/activities/query", as: user, json: #"{"filter":{"user_id":"alice"}}"#)
                #expect(queried.body["activities"][0]["preview"].bool == true && queried.body["activities"][0]["text"].isNull)
                // Its comments and reactions are for those who read it in full.
                let comment = try await server.comment(on: id, "let me in", as: user)
                #expect(comment.status == 404 || comment.status == 403, "\(comment.text)")
                let react = try await server.api(.POST, "/feeds/activities/\(id)/reactions", as: user, json: #"{"type":"like"}"#)
                #expect(react.status == 404 || react.status == 403, "\(react.text)")
            }
            #expect(try await server.comment(on: id, "thanks", as: "bob").status == 201)
            let comments = try await server.api(
                .GET, "/feeds/comments", as: "carol", query: "&object_id=\(id)&object_type=activity")
            #expect(comments.body["comments"].array.isEmpty, "a preview's comments stay hidden: \(comments.text)")

            // The level's tags say what it gives: widened, dan reads; deleted, bob no longer does.
            #expect(
                try await server.api(.PATCH, levels + "/basic", as: nil, json: #"{"tags":["basic","premium"]}"#).status == 200)
            #expect(try await page(as: "dan")["preview"].bool == false)
            #expect(try await server.api(.DELETE, levels + "/premium", as: nil).status == 200)
            #expect(try await page(as: "bob")["preview"].bool == true)
            let members = try await server.api(.POST, path + "/query", as: nil, json: #"{"filter":{"user_id":"bob"}}"#)
            #expect(members.body["members"][0]["membership_level"].isNull, "\(members.text)")
        }
    }

    /// A tagged activity reaches its followers' timelines as a public one does; each follower reads
    /// it there as on its feed, in full or as a preview.
    @Test func aTaggedActivityReachesTimelinesAsEachReaderMayReadIt() async throws {
        try await TestServer.run { server in
            #expect(try await create(server, #"{"id":"premium","name":"Premium","tags":["premium"]}"#).status == 201)
            try await server.createFeed("user:alice", owner: "alice", visibility: "visible")
            let given = try await server.api(
                .PATCH, "/feeds/feed_groups/user/feeds/alice/members", as: nil,
                json: #"{"operation":"upsert","members":[{"user_id":"bob","membership_level":"premium"}]}"#)
            #expect(given.status == 200, "\(given.text)")
            for user in ["bob", "carol"] {
                try await server.createFeed("timeline:\(user)", owner: user)
                #expect(try await server.follow("timeline:\(user)", "user:alice", as: user).status == 201)
            }
            let early = try await server.api(
                .POST, "/feeds/activities", as: "alice",
                json: #"{"type":"post","feeds":["user:alice"],"text":"early","visibility":"tag","visibility_tag":"premium"}"#)
            #expect(early.status == 201, "\(early.text)")
            try await server.waitForFanout()
            // A follow made after the post copies it too (the backfill).
            try await server.createFeed("timeline:dan", owner: "dan")
            #expect(try await server.follow("timeline:dan", "user:alice", as: "dan").status == 201)
            try await server.waitForFanout()

            for (user, preview) in [("bob", false), ("carol", true), ("dan", true)] {
                let read = try await server.api(.POST, "/feeds/feed_groups/timeline/feeds/\(user)", as: user, json: "{}")
                let activity = read.body["activities"][0]
                #expect(activity["id"].string == early.body["activity"]["id"].string, "\(user): \(read.text)")
                #expect(activity["preview"].bool == preview, "\(user): \(activity)")
                #expect(activity["text"].string == (preview ? nil : "early"), "\(user): \(activity)")
            }
        }
    }
}
