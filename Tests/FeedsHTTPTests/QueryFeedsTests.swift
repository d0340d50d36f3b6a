import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// QueryFeeds, OwnBatch and `own_capabilities`: what Stream's client SDK reads to draw a feed screen.
@Suite struct QueryFeedsTests {
    func feeds(_ reply: TestServer.Reply) -> [String] {
        #expect(reply.status == 201, "\(reply.text)")
        return reply.body["feeds"].array.compactMap { $0["feed"].string }
    }

    /// Six feeds created in order: user:a, user:b, user:c by their users, topic:0…2 by the server for "a".
    func seed(_ server: TestServer) async throws {
        try await server.createFeedGroups("topic")
        for user in ["a", "b", "c"] {
            let reply = try await server.api(.POST, "/feeds/feed_groups/user/feeds/\(user)", as: user, json: "{}")
            #expect(reply.status == 201, "\(reply.text)")
        }
        for topic in 0..<3 {
            let reply = try await server.api(.POST, "/feeds/feed_groups/topic/feeds/\(topic)", as: nil, json: #"{"user_id":"a"}"#)
            #expect(reply.status == 201, "\(reply.text)")
        }
    }

    @Test func filtersOnGroupFeedCreatorAndTime() async throws {
        try await TestServer.run { server in
            try await seed(server)
            func query(_ filter: String) async throws -> [String] {
                feeds(try await server.api(.POST, "/feeds/feeds/query", as: "b", json: #"{"filter":\#(filter)}"#))
            }
            #expect(try await query(#"{"group_id":"user"}"#) == ["user:c", "user:b", "user:a"])
            // A sort without a direction is ascending, as Stream's SortParamRequest says.
            let oldestFirst = try await server.api(
                .POST, "/feeds/feeds/query", as: "b", json: #"{"filter":{"group_id":"user"},"sort":[{"field":"created_at"}]}"#)
            #expect(feeds(oldestFirst) == ["user:a", "user:b", "user:c"])
            #expect(try await query(#"{"group_id":{"$in":["topic"]}}"#) == ["topic:2", "topic:1", "topic:0"])
            #expect(try await query(#"{"feed":{"$in":["user:a","topic:1","nope:x"]}}"#) == ["topic:1", "user:a"])
            #expect(try await query(#"{"created_by_id":"a"}"#) == ["topic:2", "topic:1", "topic:0", "user:a"])
            #expect(try await query(#"{"id":"1"}"#) == ["topic:1"])
            let reply = try await server.api(.POST, "/feeds/feeds/query", as: "b", json: #"{"filter":{"feed":"user:b"}}"#)
            let created = try #require(reply.body["feeds"][0]["created_at"].time)
            #expect(try await query(#"{"group_id":"user","created_at":{"$gt":\#(WireTime.nanoseconds(created))}}"#) == ["user:c"])
            #expect(
                try await query(#"{"group_id":"user","created_at":{"$lte":"\#(RFC3339.string(from: created))"}}"#) == [
                    "user:b", "user:a",
                ])
        }
    }

    @Test func cursorsWalkEveryFeedOnceBothWaysInEitherOrder() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("late")
            try await seed(server)
            for direction in [-1, 1] {
                var seen: [String] = []
                var next: String?
                var pages: [[String]] = []
                repeat {
                    let cursor = next.map { #","next":"\#($0)""# } ?? ""
                    let body = #"{"limit":4,"sort":[{"field":"created_at","direction":\#(direction)}]\#(cursor)}"#
                    let reply = try await server.api(.POST, "/feeds/feeds/query", as: nil, json: body)
                    pages.append(feeds(reply))
                    seen += pages.last ?? []
                    next = reply.body["next"].string
                    // A feed created meanwhile sorts before the cursor (newest first) or after it (oldest first).
                    if pages.count == 1 {
                        _ = try await server.api(.POST, "/feeds/feed_groups/late/feeds/x", as: "c", json: "{}")
                    }
                } while next != nil && pages.count < 10
                #expect(Set(seen).count == seen.count, "no feed twice: \(seen)")
                #expect(seen.count == (direction == -1 ? 6 : 7), "\(seen)")

                // prev from the second page leads back to the first.
                let first = try await server.api(
                    .POST, "/feeds/feeds/query", as: nil,
                    json: #"{"limit":2,"sort":[{"field":"created_at","direction":\#(direction)}]}"#)
                let second = try await server.api(
                    .POST, "/feeds/feeds/query", as: nil,
                    json:
                        #"{"limit":2,"sort":[{"field":"created_at","direction":\#(direction)}],"next":"\#(first.body["next"].string ?? "")"}"#
                )
                let back = try await server.api(
                    .POST, "/feeds/feeds/query", as: nil,
                    json:
                        #"{"limit":2,"sort":[{"field":"created_at","direction":\#(direction)}],"prev":"\#(second.body["prev"].string ?? "")"}"#
                )
                #expect(feeds(back) == feeds(first))
                #expect(back.body["prev"].isNull)
                _ = try await server.api(.DELETE, "/feeds/activities/none", as: nil)
            }
        }
    }

    @Test func ownCapabilitiesFollowTheCallerAndTheOwner() async throws {
        try await TestServer.run { server in
            try await seed(server)
            let owner = try await server.api(.POST, "/feeds/feed_groups/user/feeds/a", as: "a", json: "{}")
            let ownerCapabilities = owner.body["feed"]["own_capabilities"].array.compactMap(\.string)
            #expect(ownerCapabilities.contains("add-activity") && ownerCapabilities.contains("read-feed"))
            #expect(!ownerCapabilities.contains("delete-any-activity"))

            let other = try await server.api(.POST, "/feeds/feed_groups/user/feeds/a", as: "b", json: "{}")
            let otherCapabilities = other.body["feed"]["own_capabilities"].array.compactMap(\.string)
            #expect(otherCapabilities.contains("read-activities") && !otherCapabilities.contains("add-activity"))

            // The server acting for a user sees that user's; alone, everything.
            let forA = try await server.api(.POST, "/feeds/feed_groups/user/feeds/a", as: nil, json: #"{"user_id":"a"}"#)
            #expect(forA.body["feed"]["own_capabilities"] == owner.body["feed"]["own_capabilities"])
            let query = try await server.api(.POST, "/feeds/feeds/query", as: nil, json: #"{"filter":{"feed":"user:a"}}"#)
            #expect(query.body["feeds"][0]["own_capabilities"].array.compactMap(\.string).contains("delete-any-activity"))

            let batch = try await server.api(
                .POST, "/feeds/feeds/own/batch", as: "b", json: #"{"feeds":["user:a","user:b","user:nobody"]}"#)
            #expect(batch.status == 201, "\(batch.text)")
            #expect(batch.body["data"]["user:a"]["own_capabilities"] == other.body["feed"]["own_capabilities"])
            #expect(batch.body["data"]["user:b"]["own_capabilities"].array.compactMap(\.string).contains("add-activity"))
            #expect(batch.body["data"]["user:a"]["own_follows"] == .array([]))
            #expect(batch.body["data"]["user:nobody"].isNull)
            let some = try await server.api(
                .POST, "/feeds/feeds/own/batch", as: "b", json: #"{"feeds":["user:a"],"fields":["own_follows"]}"#)
            #expect(
                some.body["data"]["user:a"]["own_capabilities"].isNull && some.body["data"]["user:a"]["own_follows"] == .array([])
            )
        }
    }

    @Test(arguments: [
        ("/feeds/feeds/query", #"{"filter":{"name":{"$q":"x"}}}"#, "filter.name"),
        ("/feeds/feeds/query", #"{"filter":{"group_id":{"$in":"user"}}}"#, "filter.group_id"),
        ("/feeds/feeds/query", #"{"limit":101}"#, "limit"),
        ("/feeds/feeds/query", #"{"sort":[{"field":"activity_count"}]}"#, "sort"),
        ("/feeds/feeds/query", #"{"next":"garbage"}"#, "next"),
        ("/feeds/feeds/query", #"{"next":"a","prev":"b"}"#, "next"),
        ("/feeds/feeds/own/batch", #"{"feeds":[]}"#, "feeds"),
        ("/feeds/feeds/own/batch", #"{"feeds":["no-colon"]}"#, "feeds"),
        ("/feeds/feeds/own/batch", #"{"feeds":["user:a"],"fields":["own_secrets"]}"#, "fields"),
        ("/feeds/feeds/own/batch", #"{"feeds":["user:a"],"user_id":"b"}"#, nil),
    ])
    func badRequestsAreRefusedNamingTheField(path: String, body: String, field: String?) async throws {
        try await TestServer.run { server in
            let reply = try await server.api(.POST, path, as: "a", json: body)
            if let field {
                expectAPIError(reply, status: 400, code: 4, field: field)
            } else {
                expectAPIError(reply, status: 403, code: 17)
            }
        }
    }

    @Test func cursorsAreBoundToTheirOrderAndCannotBeForged() async throws {
        try await TestServer.run { server in
            try await seed(server)
            let first = try await server.api(.POST, "/feeds/feeds/query", as: "a", json: #"{"limit":2}"#)
            let next = try #require(first.body["next"].string)
            // A cursor made for newest first is refused for oldest first, and a next cursor as prev.
            let flipped = try await server.api(
                .POST, "/feeds/feeds/query", as: "a",
                json: #"{"limit":2,"sort":[{"field":"created_at","direction":1}],"next":"\#(next)"}"#)
            expectAPIError(flipped, status: 400, code: 4, field: "next")
            expectAPIError(
                try await server.api(.POST, "/feeds/feeds/query", as: "a", json: #"{"prev":"\#(next)"}"#), status: 400, code: 4,
                field: "prev")
            // A forged cursor with SQL in its id is data, not SQL; one past 2262 is refused, not a 500.
            let forged = Base64URL.encode("f|n|created_at|-1|9223372036854775|x') OR true; --".utf8)
            let reply = try await server.api(.POST, "/feeds/feeds/query", as: "a", json: #"{"next":"\#(forged)"}"#)
            #expect(feeds(reply).count == 6)
            let overflow = Base64URL.encode("f|n|created_at|-1|9223372036854775807|user:a".utf8)
            expectAPIError(
                try await server.api(.POST, "/feeds/feeds/query", as: "a", json: #"{"next":"\#(overflow)"}"#), status: 400,
                code: 4, field: "next")
            let activities = Base64URL.encode("n|9223372036854775807|x".utf8)
            expectAPIError(
                try await server.api(.POST, "/feeds/activities/query", as: "a", json: #"{"next":"\#(activities)"}"#),
                status: 400, code: 4, field: "next")
            let ownBatch = (0..<101).map { "\"user:u\($0)\"" }.joined(separator: ",")
            expectAPIError(
                try await server.api(.POST, "/feeds/feeds/own/batch", as: "a", json: #"{"feeds":[\#(ownBatch)]}"#), status: 400,
                code: 4, field: "feeds")
        }
    }

    /// GetOrCreateFeed's `data` names a new feed; an existing one keeps what it has (UpdateFeed changes it).
    @Test func aNewFeedTakesItsDataAndAnExistingOneKeepsIt() async throws {
        try await TestServer.run { server in
            let path = "/feeds/feed_groups/user/feeds/a"
            let data = #"{"data":{"name":"A's","description":"about","custom":{"n":1},"visibility":"followers"}}"#
            let created = try await server.api(.POST, path, as: "a", json: data).body["feed"]
            #expect(
                created["name"].string == "A's" && created["description"].string == "about" && created["custom"]["n"].int == 1)
            #expect(created["visibility"].string == "followers", "\(created)")
            let again = try await server.api(.POST, path, as: "a", json: #"{"data":{"name":"other"}}"#).body["feed"]
            #expect(again["name"].string == "A's")
            // Over the spec's lengths (in characters: 255 two-byte ones are fine).
            let long = String(repeating: "é", count: 255)
            #expect(
                try await server.api(.POST, "/feeds/feed_groups/user/feeds/b", as: "b", json: #"{"data":{"name":"\#(long)"}}"#)
                    .status == 201)
            expectAPIError(
                try await server.api(.POST, "/feeds/feed_groups/user/feeds/c", as: "c", json: #"{"data":{"name":"\#(long)é"}}"#),
                status: 400, code: 4, field: "data.name")
            #expect(
                try await server.api(.POST, "/feeds/feeds/query", as: nil, json: #"{"filter":{"feed":"user:c"}}"#).body["feeds"]
                    == .array([]))
        }
    }
}
