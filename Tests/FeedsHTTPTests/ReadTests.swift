import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@Suite struct ReadTests {
    @Test func queryFiltersOnFeedsUsersTypesAndTime() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("room")
            try await server.addActivity(as: "alice", feeds: ["user:alice"], type: "post")
            try await server.addActivity(as: "bob", feeds: ["user:bob"], type: "like")
            let middle = try #require(
                try await server.addActivity(as: "carol", feeds: ["user:carol", "room:x"], type: "post")["created_at"].time)
            try await server.addActivity(as: "alice", feeds: ["room:x"], type: "share", byServer: true)

            func ids(_ filter: String) async throws -> [String] {
                let reply = try await server.api(.POST, "/feeds/activities/query", as: nil, json: #"{"filter":\#(filter)}"#)
                #expect(reply.status == 201, "\(reply.text)")
                return reply.body["activities"].array.compactMap { $0["user"]["id"].string }
            }
            #expect(try await ids(#"{"feeds":{"$in":["room:x"]}}"#) == ["alice", "carol"])
            #expect(try await ids(#"{"feeds":{"$in":["room:x","user:bob"]}}"#) == ["alice", "carol", "bob"])
            #expect(try await ids(#"{"user_id":"alice"}"#) == ["alice", "alice"])
            #expect(try await ids(#"{"user_id":{"$in":["bob","carol"]}}"#) == ["carol", "bob"])
            #expect(try await ids(#"{"type":{"$eq":"post"}}"#) == ["carol", "alice"])
            #expect(try await ids(#"{"type":{"$in":["like","share"]}}"#) == ["alice", "bob"])
            // Times as Stream sends them (nanoseconds) and as SDKs may send them (RFC 3339).
            let nanos = WireTime.nanoseconds(middle), text = RFC3339.string(from: middle)
            #expect(try await ids(#"{"created_at":{"$gte":\#(nanos)}}"#) == ["alice", "carol"])
            #expect(try await ids(#"{"created_at":{"$lt":\#(nanos)}}"#) == ["bob", "alice"])
            #expect(try await ids(#"{"created_at":{"$gte":"\#(text)"}}"#) == ["alice", "carol"])
            #expect(try await ids(#"{"created_at":{"$gt":"\#(text)"}}"#) == ["alice"])

            let bad = try await server.api(.POST, "/feeds/activities/query", as: nil, json: #"{"filter":{"text":{"$eq":"x"}}}"#)
            expectAPIError(bad, status: 400, code: 4, field: "filter.text")
            let badLimit = try await server.api(.POST, "/feeds/activities/query", as: nil, json: #"{"limit":101}"#)
            expectAPIError(badLimit, status: 400, code: 4, field: "limit")
            let badCursor = try await server.api(.POST, "/feeds/activities/query", as: nil, json: #"{"next":"garbage!"}"#)
            expectAPIError(badCursor, status: 400, code: 4, field: "next")
        }
    }

    @Test func privateActivitiesShowOnlyToTheirOwnerAndTheServer() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("room")
            let id = try #require(
                try await server.addActivity(as: "alice", feeds: ["room:x"], extra: #""visibility":"private""#)["id"].string)
            expectAPIError(try await server.api(.GET, "/feeds/activities/\(id)", as: "bob"), status: 404, code: 16)
            #expect(try await server.api(.GET, "/feeds/activities/\(id)", as: "alice").status == 200)
            #expect(try await server.api(.GET, "/feeds/activities/\(id)", as: nil).status == 200)
            let feed = try await server.api(.POST, "/feeds/feed_groups/room/feeds/x", as: "bob", json: "{}")
            #expect(feed.body["activities"].array.isEmpty)
        }
    }

    /// 60 activities paged by 25 while others keep arriving: each seen exactly once, in order.
    @Test func cursorPagesAreExactWhileActivitiesArrive() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("room")
            var posted: [String] = []
            for index in 0..<60 {
                posted.append(
                    try #require(
                        try await server.addActivity(as: "u\(index % 3)", feeds: ["room:busy"], text: "n\(index)", byServer: true)["id"]
                            .string))
            }
            let writer = Task {
                for index in 0..<40 {
                    try await server.addActivity(as: "late", feeds: ["room:busy"], text: "late\(index)", byServer: true)
                }
            }
            var seen: [String] = []
            var next: String?
            var firstPagePrev: JSONValue = .null
            var pages = 0
            repeat {
                let cursor = next.map { #","next":"\#($0)""# } ?? ""
                let reply = try await server.api(
                    .POST, "/feeds/activities/query", as: nil,
                    json: #"{"filter":{"feeds":{"$in":["room:busy"]},"user_id":{"$in":["u0","u1","u2"]}},"limit":25\#(cursor)}"#
                )
                #expect(reply.status == 201, "\(reply.text)")
                if pages == 0 { firstPagePrev = reply.body["prev"] }
                seen += reply.body["activities"].array.compactMap { $0["id"].string }
                next = reply.body["next"].string
                pages += 1
                try await Task.sleep(for: .milliseconds(20))
            } while next != nil && pages < 10
            try await writer.value

            #expect(pages == 3)
            #expect(firstPagePrev.isNull)
            #expect(seen == Array(posted.reversed()))
        }
    }

    @Test func prevCursorsPageBackToTheStart() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("room")
            var posted: [String] = []
            for index in 0..<7 {
                posted.append(
                    try #require(try await server.addActivity(as: "a", feeds: ["room:p"], text: "\(index)")["id"].string))
            }
            let newestFirst = Array(posted.reversed())
            func page(_ extra: String) async throws -> JSONValue {
                try await server.api(.POST, "/feeds/feed_groups/room/feeds/p", as: "a", json: #"{"limit":3\#(extra)}"#).body
            }
            let first = try await page("")
            let second = try await page(#","next":"\#(try #require(first["next"].string))""#)
            #expect(second["activities"].array.compactMap { $0["id"].string } == Array(newestFirst[3..<6]))
            let third = try await page(#","next":"\#(try #require(second["next"].string))""#)
            #expect(third["activities"].array.compactMap { $0["id"].string } == [newestFirst[6]])
            #expect(third["next"].isNull)
            let back = try await page(#","prev":"\#(try #require(third["prev"].string))""#)
            #expect(back["activities"].array.compactMap { $0["id"].string } == Array(newestFirst[3..<6]))
            let start = try await page(#","prev":"\#(try #require(back["prev"].string))""#)
            #expect(start["activities"].array.compactMap { $0["id"].string } == Array(newestFirst[0..<3]))
            #expect(start["prev"].isNull)
        }
    }

    @Test func getOrCreateFeedCreatesOnceAndListsNewestFirst() async throws {
        try await TestServer.run { server in
            let created = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: "{}")
            #expect(created.status == 201, "\(created.text)")
            #expect(created.body["created"].bool == true)
            let feed = created.body["feed"]
            for field in [
                "group_id", "id", "feed", "name", "description", "created_by", "member_count", "follower_count",
                "following_count", "activity_count", "pin_count", "created_at", "updated_at",
            ] {
                #expect(!feed[field].isNull, "missing feed.\(field)")
            }
            #expect(feed["feed"].string == "user:alice")
            #expect(feed["created_by"]["id"].string == "alice")
            for field in ["activities", "aggregated_activities", "members", "followers", "following", "pinned_activities"] {
                #expect(created.body[field] == .array([]), "\(field)")
            }

            try await server.addActivity(as: "alice", feeds: ["user:alice"], text: "one")
            try await server.addActivity(as: "alice", feeds: ["user:alice"], text: "two")
            let again = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "bob", json: "{}")
            #expect(again.body["created"].bool == false)
            #expect(again.body["feed"]["activity_count"].int == 2)
            #expect(again.body["activities"].array.compactMap { $0["text"].string } == ["two", "one"])

            let unnamed = try await server.api(.POST, "/feeds/feed_groups/user/feeds/nobody", as: nil, json: "{}")
            expectAPIError(unnamed, status: 400, code: 4, field: "user_id")
            let badID = try await server.api(.POST, "/feeds/feed_groups/user/feeds/a%20b", as: "alice", json: "{}")
            expectAPIError(badID, status: 400, code: 4)
        }
    }
}
