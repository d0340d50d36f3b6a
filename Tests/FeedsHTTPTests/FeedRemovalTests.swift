import FeedsCore
import FeedsLoadTest
import FeedsTestSupport
import Foundation
import Testing

/// DeleteFeed, DeleteFeedsBatch, GetTask and ChangeFeedVisibility: who may, what goes and what
/// stays, all or nothing, and the follows, members and watches a new visibility no longer allows.
@Suite struct FeedRemovalTests {
    @Test func aDeletedFeedLeavesEveryReadAndDetachesWhatIsPostedElsewhere() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            try await server.createFeedGroups("room")
            try await server.createFeed("room:lobby", owner: "alice")
            try await server.createFeed("timeline:bob", owner: "bob")
            #expect(try await server.follow("timeline:bob", "user:alice", as: "bob").status == 201)
            let only = try #require(try await server.addActivity(as: "alice", text: "only here")["id"].string)
            let both = try #require(
                try await server.addActivity(as: "alice", feeds: ["user:alice", "room:lobby"], text: "both")["id"].string)
            try await server.waitForFanout()
            #expect(try await server.timeline("timeline:bob", as: "bob") == [both, only])
            let (socket, inbox, connection) = try await server.connected("carol")
            try await server.watch("user:alice", as: "carol", connectionID: connection)

            // Nobody but the owner (or the server) deletes it; a missing feed is 404.
            expectAPIError(
                try await server.api(.DELETE, "/feeds/feed_groups/user/feeds/alice", as: "mallory"), status: 403, code: 17)
            expectAPIError(
                try await server.api(.DELETE, "/feeds/feed_groups/user/feeds/ghost", as: "alice"), status: 404, code: 16)
            expectAPIError(
                try await server.api(
                    .DELETE, "/feeds/feed_groups/user/feeds/alice", as: "alice", query: "&purge_user_activities=true"),
                status: 400, code: 4, field: "purge_user_activities")
            #expect(try await server.number("SELECT count(*)::int FROM feeds WHERE fid = 'user:alice'") == 1)

            let deleted = try await server.api(.DELETE, "/feeds/feed_groups/user/feeds/alice", as: "alice")
            #expect(deleted.status == 200, "\(deleted.text)")
            let taskID = try #require(deleted.body["task_id"].string)
            let event = try await inbox.event()
            #expect(event["type"].string == "feeds.feed.deleted" && event["fid"].string == "user:alice", "\(event)")
            #expect(event["user"]["id"].string == "alice")

            // The feed is gone from reads, its follow with it, and the follower's count.
            let read = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "bob", json: "{}")
            expectAPIError(read, status: 403, code: 17)
            #expect(try await server.number("SELECT count(*)::int FROM follows") == 0)
            let timeline = try await server.api(.POST, "/feeds/feed_groups/timeline/feeds/bob", as: "bob", json: "{}")
            #expect(timeline.body["feed"]["following_count"].int == 0, "\(timeline.text)")
            // What was posted only there is soft-deleted (restorable); what was posted elsewhere
            // too stays there, detached, and leaves the follower's timeline with the follow.
            #expect(
                try await server.number("SELECT count(*)::int FROM activities WHERE id = \(only) AND deleted_at IS NOT NULL") == 1
            )
            let kept = try await server.api(.GET, "/feeds/activities/\(both)", as: "bob")
            #expect(
                kept.status == 200 && kept.body["activity"]["feeds"].array.compactMap(\.string) == ["room:lobby"], "\(kept.text)")
            #expect(try await server.timeline("room:lobby", as: "bob") == [both])
            #expect(try await server.timeline("timeline:bob", as: "bob").isEmpty)

            // The task says what was done; only the server reads it.
            let task = try await server.api(.GET, "/tasks/\(taskID)", as: nil)
            #expect(task.status == 200 && task.body["status"].string == "completed", "\(task.text)")
            #expect(task.body["result"]["deleted_activities"].int == 1 && task.body["result"]["detached_activities"].int == 1)
            expectAPIError(try await server.api(.GET, "/tasks/\(taskID)", as: "alice"), status: 403, code: 17)
            expectAPIError(try await server.api(.GET, "/tasks/not-a-task", as: nil), status: 404, code: 16)

            // Made again, it starts empty: the old watch ended, and the soft-deleted post is not in it.
            try await server.createFeed("user:alice", owner: "alice")
            #expect(try await server.timeline("user:alice", as: "alice").isEmpty)
            _ = try await server.addActivity(as: "alice", text: "unwatched now")
            try await server.watch("room:lobby", as: "carol", connectionID: connection)
            let marker = try #require(
                try await server.addActivity(as: "alice", feeds: ["room:lobby"], text: "marker")["id"].string)
            #expect(try await inbox.event()["activity"]["id"].string == marker, "no event of the re-made feed came first")
            try await socket.hangUp()
        }
    }

    @Test func aHardDeleteRemovesActivitiesAndTheirFilesAndPurgeTakesTheOwnersPostsEverywhere() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            try await server.createFeedGroups("room")
            try await server.createFeed("room:lobby", owner: "dora")
            let only = try #require(try await server.addActivity(as: "alice", text: "only here")["id"].string)
            let shared = try #require(
                try await server.addActivity(as: "alice", feeds: ["user:alice", "room:lobby"], text: "shared", byServer: true)[
                    "id"
                ].string)
            let dorasOwn = try #require(
                try await server.addActivity(as: "dora", feeds: ["room:lobby"], text: "dora's")["id"].string)
            let reply = try await server.api(
                .DELETE, "/feeds/feed_groups/user/feeds/alice", as: nil, query: "&hard_delete=true&purge_user_activities=true")
            #expect(reply.status == 200, "\(reply.text)")
            // Alice's posts to her feed are gone everywhere; the room keeps dora's.
            #expect(try await server.number("SELECT count(*)::int FROM activities WHERE id IN (\(only), \(shared))") == 0)
            #expect(try await server.timeline("room:lobby", as: "dora") == [dorasOwn])
            let room = try await server.api(.POST, "/feeds/feed_groups/room/feeds/lobby", as: "dora", json: "{}")
            #expect(room.body["feed"]["activity_count"].int == 1, "\(room.text)")
        }
    }

    @Test func aBatchDeletesAllOrNothingAndOnlyForTheServer() async throws {
        try await TestServer.run { server in
            for user in ["alice", "bob"] { try await server.createFeed("user:\(user)", owner: user) }
            try await server.createFeed("timeline:alice", owner: "alice")
            #expect(try await server.follow("timeline:alice", "user:bob", as: "alice").status == 201)
            _ = try await server.addActivity(as: "bob", text: "hi")
            let both = #"{"feeds":["user:alice","user:bob"]}"#
            expectAPIError(try await server.api(.POST, "/feeds/feeds/delete", as: "alice", json: both), status: 403, code: 17)
            // One missing feed fails the batch; nothing is deleted.
            expectAPIError(
                try await server.api(.POST, "/feeds/feeds/delete", as: nil, json: #"{"feeds":["user:alice","user:ghost"]}"#),
                status: 404, code: 16)
            #expect(try await server.number("SELECT count(*)::int FROM feeds") == 3)
            // Hostile lists: empty, too many, malformed ids, purge without hard.
            let many = (0...1000).map { #""user:u\#($0)""# }.joined(separator: ",")
            for (body, field) in [
                (#"{"feeds":[]}"#, "feeds"), (#"{"feeds":[\#(many)]}"#, "feeds"), (#"{"feeds":["nogroup"]}"#, "feeds[0]"),
                (#"{"feeds":["user:a b"]}"#, "feeds[0]"),
                (#"{"feeds":["user:alice"],"purge_user_activities":true}"#, "purge_user_activities"),
            ] {
                expectAPIError(
                    try await server.api(.POST, "/feeds/feeds/delete", as: nil, json: body), status: 400, code: 4, field: field)
            }
            // A repeated id counts once; the follow between them goes with both.
            let reply = try await server.api(
                .POST, "/feeds/feeds/delete", as: nil, json: #"{"feeds":["user:bob","timeline:alice","user:bob"]}"#)
            #expect(reply.status == 200 && reply.body["task_id"].string != nil, "\(reply.text)")
            #expect(try await server.number("SELECT count(*)::int FROM feeds") == 1)
            #expect(try await server.number("SELECT count(*)::int FROM follows") == 0)
            #expect(try await server.number("SELECT count(*)::int FROM activity_feeds") == 0)
        }
    }

    @Test func tighteningEndsFollowsAndWatchesAndLooseningAnswersRequests() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice", visibility: "followers")
            for user in ["bob", "carl"] { try await server.createFeed("timeline:\(user)", owner: user) }
            #expect(try await server.follow("timeline:bob", "user:alice", as: "bob").status == 201)
            #expect(try await server.follow("timeline:carl", "user:alice", as: "carl").status == 201)
            #expect(
                try await server.api(
                    .POST, "/feeds/follows/accept", as: "alice", json: #"{"source":"timeline:bob","target":"user:alice"}"#
                ).status == 201)
            // carl's request waits. Only the owner (or the server) changes the level; bad levels are 400.
            let path = "/feeds/feed_groups/user/feeds/alice/change_visibility"
            expectAPIError(try await server.api(.POST, path, as: "bob", json: #"{"visibility":"public"}"#), status: 403, code: 17)
            for body in [#"{"visibility":"secret"}"#, "{}", #"{"visibility":"public","pending_follows_action":"maybe"}"#] {
                #expect(try await server.api(.POST, path, as: "alice", json: body).status == 400, "\(body)")
            }
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/feed_groups/user/feeds/ghost/change_visibility", as: "alice", json: #"{"visibility":"public"}"#
                ),
                status: 404, code: 16)

            // Loosened: carl's request is approved, and the post reaches his timeline.
            let post = try #require(try await server.addActivity(as: "alice", text: "hello")["id"].string)
            try await server.waitForFanout()
            let open = try await server.api(.POST, path, as: "alice", json: #"{"visibility":"visible"}"#)
            #expect(open.status == 200 && open.body["feed"]["visibility"].string == "visible", "\(open.text)")
            #expect(open.body["feed"]["follower_count"].int == 2, "\(open.text)")
            try await server.waitForFanout()
            #expect(try await server.timeline("timeline:carl", as: "carl") == [post])

            // A stranger watching the open feed loses the watch when it closes; the owner keeps theirs.
            let (strangerSocket, strangerInbox, strangerID) = try await server.connected("mallory")
            try await server.watch("user:alice", as: "mallory", connectionID: strangerID)
            let (ownerSocket, ownerInbox, ownerID) = try await server.connected("alice")
            try await server.watch("user:alice", as: "alice", connectionID: ownerID)
            let closed = try await server.api(.POST, path, as: "alice", json: #"{"visibility":"private"}"#)
            #expect(closed.status == 200 && closed.body["feed"]["follower_count"].int == 0, "\(closed.text)")
            #expect(try await server.number("SELECT count(*)::int FROM follows") == 0)
            #expect(try await server.timeline("timeline:bob", as: "bob").isEmpty, "the copies go with the follows")
            #expect(try await ownerInbox.event()["type"].string == "feeds.feed.updated")
            let secret = try #require(try await server.addActivity(as: "alice", text: "secret")["id"].string)
            #expect(try await ownerInbox.activityEvent()["activity"]["id"].string == secret)
            // mallory's socket hears nothing of it: the next activity it hears of is in a feed it still watches.
            try await server.createFeed("user:dave", owner: "dave")
            try await server.watch("user:dave", as: "mallory", connectionID: strangerID)
            let daves = try #require(try await server.addActivity(as: "dave", text: "open")["id"].string)
            #expect(try await strangerInbox.activityEvent()["activity"]["id"].string == daves)

            // Rejecting on loosening turns waiting requests down.
            #expect(try await server.api(.POST, path, as: nil, json: #"{"visibility":"followers"}"#).status == 200)
            #expect(try await server.follow("timeline:carl", "user:alice", as: "carl").status == 201)
            let rejected = try await server.api(
                .POST, path, as: "alice", json: #"{"visibility":"public","pending_follows_action":"reject"}"#)
            #expect(rejected.status == 200 && rejected.body["feed"]["follower_count"].int == 0, "\(rejected.text)")
            #expect(try await server.number("SELECT count(*)::int FROM follows") == 0)
            try await strangerSocket.hangUp()
            try await ownerSocket.hangUp()
        }
    }
}

extension Inbox {
    /// The next event about an activity; the feed and follow events a change sent before it are passed over.
    func activityEvent() async throws -> JSONValue {
        while true {
            let event = try await event()
            if event["type"].string?.hasPrefix("feeds.activity.") == true { return event }
        }
    }
}
