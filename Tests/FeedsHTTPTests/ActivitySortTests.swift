import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// QueryActivities' `sort`: by a count or the time, either way, paged by `next` with neither
/// duplicates nor gaps, and kept to what the reader may read.
@Suite struct ActivitySortTests {
    /// Five posts of alice's with 0, 3, 1, 3 and 2 likes (ties broken by time), in a feed of hers.
    func stage(_ server: TestServer) async throws -> [String] {
        var ids: [String] = []
        for (index, likes) in [0, 3, 1, 3, 2].enumerated() {
            let id = try #require(try await server.addActivity(as: "alice", text: "post \(index)")["id"].string)
            for liker in 0..<likes { #expect(try await server.react(id, "like", as: "fan-\(liker)").status == 201) }
            ids.append(id)
        }
        return ids
    }

    /// Every page of a sorted read, two at a time, following `next`.
    func pages(_ server: TestServer, _ sort: String, as user: String? = "alice") async throws -> [String] {
        var ids: [String] = []
        var next: String?
        repeat {
            let cursor = next.map { #","next":"\#($0)""# } ?? ""
            let reply = try await server.api(
                .POST, "/feeds/activities/query", as: user,
                json: #"{"filter":{"feeds":{"$in":["user:alice"]}},"sort":[\#(sort)],"limit":2\#(cursor)}"#)
            #expect(reply.status == 201, "\(reply.text)")
            // A sorted read pages forward only; newest first is the feed order, with both cursors.
            if !sort.contains(#""created_at","direction":-1"#) { #expect(reply.body["prev"] == .null) }
            ids += reply.body["activities"].array.compactMap { $0["id"].string }
            next = reply.body["next"].string
        } while next != nil && ids.count < 20
        return ids
    }

    @Test func countsAndTimesSortEitherWay() async throws {
        try await TestServer.run { server in
            let ids = try await stage(server)
            // Equal counts: the newer first going down, the older first going up.
            #expect(try await pages(server, #"{"field":"reaction_count","direction":-1}"#) == [3, 1, 4, 2, 0].map { ids[$0] })
            #expect(try await pages(server, #"{"field":"reaction_count","direction":1}"#) == [0, 2, 4, 1, 3].map { ids[$0] })
            #expect(try await pages(server, #"{"field":"popularity","direction":-1}"#) == [3, 1, 4, 2, 0].map { ids[$0] })
            #expect(try await pages(server, #"{"field":"created_at","direction":1}"#) == ids)
            #expect(try await pages(server, #"{"field":"created_at","direction":-1}"#) == ids.reversed())
            // Comments count twice in popularity.
            let comment = try await server.api(
                .POST, "/feeds/comments", as: "bob", json: #"{"object_id":"\#(ids[0])","object_type":"activity","comment":"hi"}"#)
            #expect(comment.status == 201, "\(comment.text)")
            #expect(try await pages(server, #"{"field":"comment_count","direction":-1}"#).first == ids[0])
            let read = try await server.api(.GET, "/feeds/activities/\(ids[0])", as: "bob")
            #expect(read.body["activity"]["popularity"].int == 2, "\(read.text)")
        }
    }

    /// A count that changes between two pages moves its activity, but the pages around the
    /// cursor's place neither repeat nor skip what stayed.
    @Test func aCursorIsAPlaceInTheOrder() async throws {
        try await TestServer.run { server in
            let ids = try await stage(server)
            let first = try await server.api(
                .POST, "/feeds/activities/query", as: "alice",
                json: #"{"filter":{"user_id":"alice"},"sort":[{"field":"reaction_count","direction":-1}],"limit":2}"#)
            #expect(first.body["activities"].array.compactMap { $0["id"].string } == [ids[3], ids[1]], "\(first.text)")
            let next = try #require(first.body["next"].string)
            // Post 0 jumps to the top; the next page is still the rest after the cursor.
            for liker in 0..<5 { #expect(try await server.react(ids[0], "like", as: "late-\(liker)").status == 201) }
            let second = try await server.api(
                .POST, "/feeds/activities/query", as: "alice",
                json: #"{"filter":{"user_id":"alice"},"sort":[{"field":"reaction_count","direction":-1}],"limit":5,"next":"\#(next)"}"#)
            #expect(second.body["activities"].array.compactMap { $0["id"].string } == [ids[4], ids[2]], "\(second.text)")
        }
    }

    @Test func aSortedReadKeepsToWhatTheReaderMayRead() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice", visibility: "followers")
            let secret = try #require(try await server.addActivity(as: "alice", text: "for followers")["id"].string)
            #expect(try await server.react(secret, "like", as: "alice").status == 201)
            let sorted = try await server.api(
                .POST, "/feeds/activities/query", as: "mallory",
                json: #"{"filter":{"user_id":"alice"},"sort":[{"field":"reaction_count","direction":-1}]}"#)
            #expect(sorted.status == 201 && sorted.body["activities"].array.isEmpty, "\(sorted.text)")
            #expect(!(try await pages(server, #"{"field":"popularity","direction":-1}"#, as: "mallory")).contains(secret))
            #expect(try await pages(server, #"{"field":"popularity","direction":-1}"#, as: "alice") == [secret])
        }
    }

    /// Unknown fields, two fields, another direction, a cursor of another sort or forged, `prev`.
    @Test func hostileSortsAreRefused() async throws {
        try await TestServer.run { server in
            _ = try await stage(server)
            func query(_ body: String) async throws -> TestServer.Reply {
                try await server.api(.POST, "/feeds/activities/query", as: "alice", json: body)
            }
            expectAPIError(try await query(#"{"sort":[{"field":"text","direction":-1}]}"#), status: 400, code: 4, field: "sort.field")
            expectAPIError(
                try await query(#"{"sort":[{"field":"popularity"},{"field":"created_at"}]}"#), status: 400, code: 4, field: "sort")
            expectAPIError(
                try await query(#"{"sort":[{"field":"popularity","direction":5}]}"#), status: 400, code: 4, field: "sort.direction")
            expectAPIError(try await query(#"{"sort":[{"field":"a.id; DROP TABLE activities"}]}"#), status: 400, code: 4)
            let byCount = try await query(#"{"filter":{"user_id":"alice"},"sort":[{"field":"reaction_count","direction":-1}],"limit":1}"#)
            let countCursor = try #require(byCount.body["next"].string, "\(byCount.text)")
            let plain = try await query(#"{"filter":{"user_id":"alice"},"limit":1}"#)
            let plainCursor = try #require(plain.body["next"].string, "\(plain.text)")
            expectAPIError(
                try await query(#"{"sort":[{"field":"comment_count","direction":-1}],"next":"\#(countCursor)"}"#),
                status: 400, code: 4, field: "next")
            expectAPIError(try await query(#"{"next":"\#(countCursor)"}"#), status: 400, code: 4, field: "next")
            expectAPIError(
                try await query(#"{"sort":[{"field":"reaction_count","direction":-1}],"next":"\#(plainCursor)"}"#),
                status: 400, code: 4, field: "next")
            let prev = try #require(
                try await query(#"{"filter":{"user_id":"alice"},"limit":1,"next":"\#(plainCursor)"}"#).body["prev"].string)
            expectAPIError(
                try await query(#"{"sort":[{"field":"reaction_count","direction":-1}],"prev":"\#(prev)"}"#),
                status: 400, code: 4, field: "prev")
            // A forged cursor whose count no integer holds.
            let forged = Base64URL.encode("o|reaction_count-|1700000000000000|\(1e300.bitPattern)|x".utf8)
            expectAPIError(
                try await query(#"{"sort":[{"field":"reaction_count","direction":-1}],"next":"\#(forged)"}"#),
                status: 400, code: 4, field: "next")
        }
    }
}
