import FeedsCore
import FeedsLoadTest
import FeedsTestSupport
import Foundation
import Testing

/// The feed-level half of real time: UpdateFeed and its `feeds.feed.updated`, watching through
/// QueryFeeds, StopWatchingFeed, timelines that receive the events of the feeds they follow, and
/// bookmarks.
/// A write a watcher must not see is followed by one it must; the next event is the latter.
@Suite struct RealtimeFeedTests {
    @Test func anUpdatedFeedReachesItsWatchersAndOnlyItsOwnerMayUpdateIt() async throws {
        try await TestServer.run { server in
            let (socket, inbox, id) = try await server.connected("carol")
            try await server.createFeed("user:alice", owner: "alice")
            try await server.watch("user:alice", as: "carol", connectionID: id)

            let updated = try await server.api(
                .PUT, "/feeds/feed_groups/user/feeds/alice", as: "alice",
                json: #"{"name":"Alice's","description":"posts","custom":{"color":"blue"}}"#)
            #expect(updated.status == 201, "\(updated.text)")
            #expect(updated.body["feed"]["name"].string == "Alice's" && updated.body["feed"]["custom"]["color"].string == "blue")
            let event = try await inbox.event()
            #expect(event["type"].string == "feeds.feed.updated" && event["fid"].string == "user:alice", "\(event)")
            #expect(
                event["feed"]["name"].string == "Alice's" && event["user"]["id"].string == "alice"
                    && event["custom"].object != nil)

            // Another user, a missing feed, oversized fields, a bad id: refused, and nothing changes.
            expectAPIError(
                try await server.api(.PUT, "/feeds/feed_groups/user/feeds/alice", as: "mallory", json: #"{"name":"pwned"}"#),
                status: 403, code: 17)
            expectAPIError(
                try await server.api(.PUT, "/feeds/feed_groups/user/feeds/nobody", as: "alice", json: #"{"name":"x"}"#),
                status: 404, code: 16)
            for body in [
                #"{"name":"\#(String(repeating: "n", count: 256))"}"#,
                #"{"description":"\#(String(repeating: "d", count: 1001))"}"#,
            ] {
                expectAPIError(
                    try await server.api(.PUT, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: body), status: 400,
                    code: 4)
            }
            let badID = try await server.api(.PUT, "/feeds/feed_groups/user/feeds/a%20b", as: "alice", json: #"{"name":"x"}"#)
            #expect(badID.status == 400, "\(badID.text)")
            let feed = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: "{}").body["feed"]
            #expect(feed["name"].string == "Alice's" && feed["description"].string == "posts")

            // Fields not sent stay; the server may update any feed.
            let byServer = try await server.api(
                .PUT, "/feeds/feed_groups/user/feeds/alice", as: nil, json: #"{"description":"news"}"#)
            #expect(byServer.body["feed"]["name"].string == "Alice's" && byServer.body["feed"]["description"].string == "news")
            let next = try await inbox.event()
            #expect(next["type"].string == "feeds.feed.updated" && next["feed"]["description"].string == "news", "\(next)")
            try await socket.hangUp()
        }
    }

    /// A reaction with `enforce_unique` stands for all the user's reactions to its object: it comes
    /// as `.reaction.updated`, which Stream's client SDKs expect after such a request (they apply
    /// their own reply as that event); without it, as `.added`. On activities and comments.
    @Test func aUniqueReactionComesAsAnUpdate() async throws {
        try await TestServer.run { server in
            let (socket, inbox, id) = try await server.connected("alice")
            try await server.watch("user:alice", as: "alice", connectionID: id)
            let activity = try #require(try await server.addActivity(as: "alice", text: "hello")["id"].string)
            let added = try await inbox.event()
            #expect(added["type"].string == "feeds.activity.added")
            // Stream's Swift SDK decodes `received_at`: the moment the server sent the event.
            #expect(added["received_at"].int != nil && added["received_at"].int == added["created_at"].int, "\(added)")
            let reactions = "/feeds/activities/\(activity)/reactions"
            #expect(try await server.api(.POST, reactions, as: "bob", json: #"{"type":"like"}"#).status == 201)
            #expect(try await inbox.event()["type"].string == "feeds.activity.reaction.added")
            let unique = try await server.api(.POST, reactions, as: "bob", json: #"{"type":"heart","enforce_unique":true}"#)
            #expect(unique.status == 201, "\(unique.text)")
            let updated = try await inbox.event()
            #expect(updated["type"].string == "feeds.activity.reaction.updated", "\(updated)")
            #expect(updated["reaction"]["type"].string == "heart" && updated["reaction"]["user"]["id"].string == "bob")
            #expect(updated["activity"]["reaction_count"].int == 1, "\(updated)")

            let comment = try #require(try await server.comment(on: activity, "nice", as: "bob").body["comment"]["id"].string)
            #expect(try await inbox.event()["type"].string == "feeds.comment.added")
            let onComment = try await server.api(
                .POST, "/feeds/comments/\(comment)/reactions", as: "alice", json: #"{"type":"up","enforce_unique":true}"#)
            #expect(onComment.status == 201, "\(onComment.text)")
            let commentEvent = try await inbox.event()
            #expect(commentEvent["type"].string == "feeds.comment.reaction.updated", "\(commentEvent)")
            #expect(commentEvent["reaction"]["type"].string == "up" && commentEvent["comment"]["id"].string == comment)
            try await socket.hangUp()
        }
    }

    /// Every event names the watched feed's visibility (`feed_visibility`, which Stream's Swift
    /// SDK decodes): a timeline's copy names the timeline's, and a changed visibility shows in the
    /// next event.
    @Test func eventsNameTheWatchedFeedsVisibility() async throws {
        try await TestServer.run { server in
            let (socket, inbox, id) = try await server.connected("alice")
            try await server.createFeed("user:alice", owner: "alice", visibility: "visible")
            try await server.createFeed("timeline:alice", owner: "alice", visibility: "private")
            #expect(try await server.follow("timeline:alice", "user:alice", as: "alice").status == 201)
            try await server.watch("user:alice", as: "alice", connectionID: id)
            try await server.watch("timeline:alice", as: "alice", connectionID: id)
            _ = try await server.addActivity(as: "alice", feeds: ["user:alice"], text: "hi")
            var seen: [String: String] = [:]
            while seen.count < 2 {
                let event = try await inbox.event()
                guard event["type"].string == "feeds.activity.added" else { continue }
                seen[event["fid"].string ?? "?"] = event["feed_visibility"].string ?? "none"
            }
            #expect(seen == ["user:alice": "visible", "timeline:alice": "private"], "\(seen)")

            let changed = try await server.api(
                .POST, "/feeds/feed_groups/user/feeds/alice/change_visibility", as: nil, json: #"{"visibility":"public"}"#)
            #expect(changed.status == 200, "\(changed.text)")
            var updated = try await inbox.event()
            while updated["type"].string != "feeds.feed.updated" { updated = try await inbox.event() }
            #expect(updated["fid"].string == "user:alice", "\(updated)")
            #expect(updated["feed_visibility"].string == "public", "\(updated)")
            try await socket.hangUp()
        }
    }

    @Test func updateFeedRefusesHostileBodiesAndChangesNothing() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            let path = "/feeds/feed_groups/user/feeds/alice"
            let deep = String(repeating: #"{"a":"#, count: 5000) + "1" + String(repeating: "}", count: 5000)
            for body in [
                #"{"custom":\#(deep)}"#, #"{"custom":"x"}"#, #"{"custom":[1]}"#, #"{"name":5}"#, #"{"name":"a\u0000b"}"#, "[]",
            ] {
                let refused = try await server.api(.PUT, path, as: "alice", json: body)
                #expect(refused.status == 400 && refused.body["code"].int == 4, "\(body.prefix(40)): \(refused.text)")
            }
            let huge = #"{"custom":{"x":"\#(String(repeating: "x", count: 2 << 20))"}}"#
            #expect(try await server.api(.PUT, path, as: "alice", json: huge).status == 413)
            let feed = try await server.api(.POST, path, as: "alice", json: "{}").body["feed"]
            #expect(feed["name"].string == "" && feed["custom"] == .object([:]), "\(feed)")
        }
    }

    /// QueryFeeds lists (and with `watch`, watches) only the feeds the caller may read.
    @Test func queryFeedsWatchesTheFeedsItListsAndListsOnlyReadableOnes() async throws {
        try await TestServer.run { server in
            let (socket, inbox, id) = try await server.connected("carol")
            try await server.createFeed("user:alice", owner: "alice")
            try await server.createFeed("user:dave", owner: "dave")
            try await server.createFeed("notification:alice", owner: "alice", visibility: "private")
            try await server.createFeed("user:bob", owner: "bob", visibility: "followers")
            let query = #"{"filter":{"feed":{"$in":["user:alice","notification:alice","user:bob"]}},"watch":true}"#
            let listed = try await server.api(
                .POST, "/feeds/feeds/query", as: "carol", json: query, query: "&connection_id=\(id)")
            #expect(listed.status == 201, "\(listed.text)")
            #expect(listed.body["feeds"].array.compactMap { $0["feed"].string } == ["user:alice"])
            // The server lists them all; an accepted follower lists the followers-only feed.
            let all = try await server.api(.POST, "/feeds/feeds/query", as: nil, json: query)
            #expect(
                Set(all.body["feeds"].array.compactMap { $0["feed"].string }) == ["user:alice", "notification:alice", "user:bob"])
            try await server.createFeed("timeline:carol", owner: "carol")
            #expect(try await server.follow("timeline:carol", "user:bob", as: "carol").status == 201)
            #expect(
                try await server.api(
                    .POST, "/feeds/follows/accept", as: "bob", json: #"{"source":"timeline:carol","target":"user:bob"}"#
                ).status == 201)
            let following = try await server.api(
                .POST, "/feeds/feeds/query", as: "carol", json: #"{"filter":{"feed":"user:bob"}}"#)
            #expect(following.body["feeds"].array.compactMap { $0["feed"].string } == ["user:bob"], "\(following.text)")

            _ = try await server.addActivity(as: "alice", feeds: ["notification:alice"], text: "not listed, not watched")
            _ = try await server.addActivity(as: "dave", text: "not queried")
            let seen = try #require(try await server.addActivity(as: "alice", text: "watched")["id"].string)
            #expect(try await inbox.event()["activity"]["id"].string == seen)

            // Another user's socket cannot be made to watch.
            let stolen = try await server.api(
                .POST, "/feeds/feeds/query", as: "mallory", json: query, query: "&connection_id=\(id)")
            #expect(stolen.status == 403, "\(stolen.text)")
            try await socket.hangUp()
        }
    }

    @Test func stopWatchingEndsAFeedsEventsForThatSocketOnly() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            try await server.createFeed("user:dave", owner: "dave")
            let (socket, inbox, id) = try await server.connected("carol")
            try await server.watch("user:alice", as: "carol", connectionID: id)
            try await server.watch("user:dave", as: "carol", connectionID: id)

            let refused = try await server.api(
                .DELETE, "/feeds/feed_groups/user/feeds/alice/watch", as: "mallory", query: "&connection_id=\(id)")
            expectAPIError(refused, status: 403, code: 17)
            let stopped = try await server.api(
                .DELETE, "/feeds/feed_groups/user/feeds/alice/watch", as: "carol", query: "&connection_id=\(id)")
            #expect(stopped.status == 200 && stopped.body["duration"].string != nil, "\(stopped.text)")
            // Again, and without a socket: nothing to stop, not an error.
            #expect(
                try await server.api(
                    .DELETE, "/feeds/feed_groups/user/feeds/alice/watch", as: "carol", query: "&connection_id=\(id)"
                ).status == 200)
            #expect(try await server.api(.DELETE, "/feeds/feed_groups/user/feeds/alice/watch", as: "carol").status == 200)
            let long = String(repeating: "x", count: 200)
            expectAPIError(
                try await server.api(
                    .DELETE, "/feeds/feed_groups/user/feeds/alice/watch", as: "carol", query: "&connection_id=\(long)"),
                status: 400, code: 4)

            _ = try await server.addActivity(as: "alice", text: "no longer watched")
            let seen = try #require(try await server.addActivity(as: "dave", text: "still watched")["id"].string)
            #expect(try await inbox.event()["activity"]["id"].string == seen)
            try await socket.hangUp()
        }
    }

    /// A timeline's watcher gets the events of the public activities of the feeds it follows
    /// (accepted follows only): posts, reactions, deletes, each once, with the timeline's fid.
    @Test func aTimelinesWatcherSeesTheActivitiesOfTheFeedsItFollows() async throws {
        try await TestServer.run { server in
            try await server.createFeed("timeline:bob", owner: "bob")
            try await server.createFeed("user:alice", owner: "alice")
            try await server.createFeed("user:dave", owner: "dave")
            try await server.createFeed("user:erin", owner: "erin", visibility: "followers")
            #expect(try await server.follow("timeline:bob", "user:alice", as: "bob").status == 201)
            #expect(try await server.follow("timeline:bob", "user:dave", as: "bob").status == 201)
            // Pending until erin accepts: nothing of hers reaches bob.
            #expect(try await server.follow("timeline:bob", "user:erin", as: "bob").body["follow"]["status"].string == "pending")
            let (socket, inbox, id) = try await server.connected("bob")
            try await server.watch("timeline:bob", as: "bob", connectionID: id)

            let first = try #require(try await server.addActivity(as: "alice", text: "to followers")["id"].string)
            // The follows' own events go through the bus and may reach the hub after the watch began.
            var event = try await inbox.event()
            while event["type"].string == "feeds.follow.created" { event = try await inbox.event() }
            #expect(event["type"].string == "feeds.activity.added" && event["fid"].string == "timeline:bob", "\(event)")
            #expect(event["activity"]["id"].string == first && event["user"]["id"].string == "alice")

            _ = try await server.addActivity(as: "alice", text: "only me", extra: #""visibility":"private""#)
            _ = try await server.addActivity(as: "erin", text: "not yet accepted")
            _ = try await server.addActivity(as: "mallory", text: "not followed")
            // Posted to both followed feeds: one event.
            let both = try #require(
                try await server.addActivity(as: "alice", feeds: ["user:alice", "user:dave"], text: "both", byServer: true)["id"]
                    .string)
            event = try await inbox.event()
            #expect(event["activity"]["id"].string == both && event["fid"].string == "timeline:bob", "\(event)")

            #expect(
                try await server.api(.POST, "/feeds/activities/\(first)/reactions", as: "carol", json: #"{"type":"like"}"#).status
                    == 201)
            event = try await inbox.event()
            #expect(event["type"].string == "feeds.activity.reaction.added" && event["fid"].string == "timeline:bob", "\(event)")
            #expect(try await server.api(.DELETE, "/feeds/activities/\(first)", as: "alice").status == 200)
            event = try await inbox.event()
            #expect(event["type"].string == "feeds.activity.deleted" && event["activity"]["id"].string == first, "\(event)")

            // Unfollowed: dave's next post does not come; alice's does.
            #expect(try await server.api(.DELETE, "/feeds/follows/timeline:bob/user:dave", as: "bob").status == 200)
            #expect(try await inbox.event()["type"].string == "feeds.follow.deleted")
            _ = try await server.addActivity(as: "dave", text: "after the unfollow")
            let last = try #require(try await server.addActivity(as: "alice", text: "after")["id"].string)
            #expect(try await inbox.event()["activity"]["id"].string == last)
            try await socket.hangUp()
        }
    }

    /// Bookmarks are private: of an activity's watchers, only the bookmarking user's sockets hear of them.
    @Test func aBookmarksEventsReachOnlyItsUsersSockets() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            let (aliceSocket, aliceInbox, aliceID) = try await server.connected("alice")
            let (carolSocket, carolInbox, carolID) = try await server.connected("carol")
            try await server.watch("user:alice", as: "alice", connectionID: aliceID)
            try await server.watch("user:alice", as: "carol", connectionID: carolID)
            let activity = try #require(try await server.addActivity(as: "alice", text: "keep me")["id"].string)
            #expect(try await aliceInbox.event()["activity"]["id"].string == activity)
            #expect(try await carolInbox.event()["activity"]["id"].string == activity)

            let path = "/feeds/activities/\(activity)/bookmarks"
            #expect(try await server.api(.POST, path, as: "carol", json: #"{"custom":{"n":1}}"#).status == 201)
            var event = try await carolInbox.event()
            #expect(
                event["type"].string == "feeds.bookmark.added" && event["bookmark"]["activity"]["id"].string == activity,
                "\(event)")
            #expect(event["bookmark"]["user"]["id"].string == "carol" && event["user"]["id"].string == "carol")
            #expect(try await server.api(.PATCH, path, as: "carol", json: #"{"custom":{"n":2}}"#).status == 200)
            event = try await carolInbox.event()
            #expect(event["type"].string == "feeds.bookmark.updated" && event["bookmark"]["custom"]["n"].int == 2, "\(event)")
            #expect(try await server.api(.DELETE, path, as: "carol").status == 200)
            #expect(try await carolInbox.event()["type"].string == "feeds.bookmark.deleted")

            // A comment's bookmark: the same event, carrying the comment.
            let made = try await server.api(
                .POST, "/feeds/comments", as: "alice",
                json: #"{"object_id":"\#(activity)","object_type":"activity","comment":"thanks"}"#)
            let comment = try #require(made.body["comment"]["id"].string, "\(made.text)")
            #expect(try await aliceInbox.event()["type"].string == "feeds.comment.added")
            #expect(try await carolInbox.event()["type"].string == "feeds.comment.added")
            #expect(try await server.api(.POST, "/feeds/comments/\(comment)/bookmarks", as: "carol", json: "{}").status == 201)
            event = try await carolInbox.event()
            #expect(event["type"].string == "feeds.bookmark.added" && event["bookmark"]["object_type"].string == "comment", "\(event)")
            #expect(event["bookmark"]["object_id"].string == comment && event["bookmark"]["comment"]["id"].string == comment)

            // Alice watched all along and heard none of it: her next event is her next post.
            let next = try #require(try await server.addActivity(as: "alice", text: "next")["id"].string)
            event = try await aliceInbox.event()
            #expect(event["type"].string == "feeds.activity.added" && event["activity"]["id"].string == next, "\(event)")
            try await aliceSocket.hangUp()
            try await carolSocket.hangUp()
        }
    }
}
