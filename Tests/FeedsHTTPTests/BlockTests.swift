import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// BlockUsers, UnblockUsers and GetBlockedUsers: once alice blocks bob, neither sees the other's
/// activities, comments or reactions, nor follows, reacts to or comments on the other's; the
/// follows between them end; unblocking brings it all back. Hostile calls change nothing.
@Suite struct BlockTests {
    @Test func aBlockHidesBothWaysAndEndsTheFollows() async throws {
        try await TestServer.run { server in
            for user in ["alice", "bob", "carol"] { try await server.createFeed("user:\(user)", owner: user) }
            try await server.createFeed("timeline:alice", owner: "alice")
            #expect(try await server.follow("timeline:alice", "user:bob", as: "alice").status == 201)
            let bobs = try #require(try await server.addActivity(as: "bob", text: "bob's")["id"].string)
            let alices = try #require(try await server.addActivity(as: "alice", text: "alice's")["id"].string)
            // On carol's post both comment and react.
            let carols = try #require(try await server.addActivity(as: "carol", text: "carol's")["id"].string)
            for user in ["alice", "bob"] {
                let comment = try await server.api(
                    .POST, "/feeds/comments", as: user,
                    json: #"{"object_id":"\#(carols)","object_type":"activity","comment":"from \#(user)"}"#)
                #expect(comment.status == 201, "\(comment.text)")
                #expect(try await server.api(.POST, "/feeds/activities/\(carols)/reactions", as: user, json: #"{"type":"like"}"#).status == 201)
            }
            #expect(try await server.timeline("timeline:alice", as: "alice").contains(bobs))

            let blocked = try await server.api(.POST, "/users/block", as: "alice", json: #"{"blocked_user_id":"bob"}"#)
            #expect(blocked.status == 201, "\(blocked.text)")
            #expect(blocked.body["blocked_by_user_id"].string == "alice" && blocked.body["blocked_user_id"].string == "bob")
            #expect(blocked.body["created_at"].int != nil)
            // Again is fine, and the first block stands.
            let again = try await server.api(.POST, "/users/block", as: "alice", json: #"{"blocked_user_id":"bob"}"#)
            #expect(again.status == 201 && again.body["created_at"] == blocked.body["created_at"])

            // The follow ended, with its copies.
            #expect(try await server.number("SELECT count(*)::int FROM follows WHERE target_fid = 'user:bob'") == 0)
            #expect(try await !server.timeline("timeline:alice", as: "alice").contains(bobs))
            // Neither reads the other's activity, nor reacts to it, nor comments on it.
            expectAPIError(try await server.api(.GET, "/feeds/activities/\(bobs)", as: "alice"), status: 404, code: 16)
            expectAPIError(try await server.api(.GET, "/feeds/activities/\(alices)", as: "bob"), status: 404, code: 16)
            expectAPIError(
                try await server.api(.POST, "/feeds/activities/\(alices)/reactions", as: "bob", json: #"{"type":"like"}"#),
                status: 404, code: 16)
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/comments", as: "bob", json: #"{"object_id":"\#(alices)","object_type":"activity","comment":"hi"}"#),
                status: 404, code: 16)
            let query = try await server.api(.POST, "/feeds/activities/query", as: "alice", json: #"{"filter":{"user_id":"bob"}}"#)
            #expect(query.status == 201 && query.body["activities"].array.isEmpty, "\(query.text)")
            // Nor follows the other's feeds.
            expectAPIError(try await server.follow("user:bob", "user:alice", as: "bob"), status: 403, code: 17)
            expectAPIError(try await server.follow("timeline:alice", "user:bob", as: "alice"), status: 403, code: 17)
            // On carol's post, each sees only their own comment and reaction; carol sees both.
            for (viewer, seen) in [("alice", ["from alice"]), ("bob", ["from bob"]), ("carol", ["from alice", "from bob"])] {
                let comments = try await server.api(
                    .GET, "/feeds/comments", as: viewer, query: "&object_id=\(carols)&object_type=activity&sort=first")
                #expect(comments.body["comments"].array.compactMap { $0["text"].string } == seen, "\(viewer): \(comments.text)")
                let reactions = try await server.api(.POST, "/feeds/activities/\(carols)/reactions/query", as: viewer, json: "{}")
                #expect(reactions.body["reactions"].array.count == seen.count, "\(viewer): \(reactions.text)")
            }

            let list = try await server.api(.GET, "/users/block", as: "alice")
            #expect(list.status == 200, "\(list.text)")
            #expect(list.body["blocks"].array.map { $0["blocked_user_id"].string } == ["bob"])
            #expect(list.body["blocks"][0]["blocked_user"]["id"].string == "bob" && list.body["blocks"][0]["user_id"].string == "alice")
            #expect(try await server.api(.GET, "/users/block", as: "bob").body["blocks"].array.isEmpty)

            // Unblocking brings the reads back (the follow stays ended).
            #expect(try await server.api(.POST, "/users/unblock", as: "alice", json: #"{"blocked_user_id":"bob"}"#).status == 201)
            #expect(try await server.api(.GET, "/feeds/activities/\(bobs)", as: "alice").status == 200)
            #expect(try await server.follow("user:bob", "user:alice", as: "bob").status == 201)
            #expect(try await server.api(.GET, "/users/block", as: "alice").body["blocks"].array.isEmpty)
        }
    }

    /// A blocked user's reaction on a third user's activity reaches the watchers of its feed,
    /// but not the blocker.
    @Test func eventsOfABlockedUserDoNotReachTheBlocker() async throws {
        try await TestServer.run { server in
            for user in ["alice", "bob", "carol"] { try await server.createFeed("user:\(user)", owner: user) }
            let carols = try #require(try await server.addActivity(as: "carol", text: "carol's")["id"].string)
            #expect(try await server.api(.POST, "/users/block", as: "alice", json: #"{"blocked_user_id":"bob"}"#).status == 201)
            let (socket, inbox, connection) = try await server.connected("alice")
            try await server.watch("user:carol", as: "alice", connectionID: connection)
            for user in ["bob", "carol"] {
                let liked = try await server.api(.POST, "/feeds/activities/\(carols)/reactions", as: user, json: #"{"type":"like"}"#)
                #expect(liked.status == 201, "\(liked.text)")
            }
            // Events reach a socket in the order they were written: bob's came first, and was left out.
            let event = try await inbox.event()
            #expect(event["type"].string == "feeds.activity.reaction.added", "\(event)")
            #expect(event["reaction"]["user"]["id"].string == "carol" || event["user"]["id"].string == "carol", "\(event)")
            try await socket.hangUp()
        }
    }

    @Test func hostileBlocksChangeNothing() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:bob", owner: "bob")
            // Oneself, nobody, an empty or oversized id, another user's name on a user token.
            expectAPIError(
                try await server.api(.POST, "/users/block", as: "alice", json: #"{"blocked_user_id":"alice"}"#), status: 400, code: 4)
            expectAPIError(
                try await server.api(.POST, "/users/block", as: "alice", json: #"{"blocked_user_id":"nobody"}"#), status: 404, code: 16)
            expectAPIError(
                try await server.api(.POST, "/users/block", as: "alice", json: #"{"blocked_user_id":""}"#), status: 400, code: 4)
            let long = String(repeating: "x", count: 300)
            expectAPIError(
                try await server.api(.POST, "/users/block", as: "alice", json: #"{"blocked_user_id":"\#(long)"}"#), status: 400, code: 4)
            expectAPIError(
                try await server.api(.POST, "/users/block", as: "alice", json: #"{"blocked_user_id":"bob","user_id":"carol"}"#),
                status: 403, code: 17)
            expectAPIError(try await server.api(.POST, "/users/block", as: "alice", json: #"{"blocked_user_id":7}"#), status: 400, code: 4)
            expectAPIError(try await server.api(.GET, "/users/block", as: "alice", query: "&user_id=bob"), status: 403, code: 17)
            // The server acts for a user it names, and must name one.
            expectAPIError(try await server.api(.POST, "/users/block", as: nil, json: #"{"blocked_user_id":"bob"}"#), status: 400, code: 4)
            #expect(
                try await server.api(.POST, "/users/block", as: nil, json: #"{"blocked_user_id":"bob","user_id":"carol"}"#).status == 201)
            #expect(try await server.api(.GET, "/users/block", as: nil, query: "&user_id=carol").body["blocks"].array.count == 1)
            // Unblocking what is not blocked is fine.
            #expect(try await server.api(.POST, "/users/unblock", as: "alice", json: #"{"blocked_user_id":"bob"}"#).status == 201)
            #expect(try await server.number("SELECT count(*)::int FROM user_blocks") == 1)
        }
    }
}
