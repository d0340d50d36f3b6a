import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// Stories as Stream's sample apps use them (react-demo's StoryTimeline and StoryViewer): people
/// post to `story:<them>`, follow others' from `stories:<me>`, read that timeline grouped per
/// author with each story's `is_watched`, and mark stories watched as they view them.
@Suite struct StoriesTests {
    func story(_ server: TestServer, by user: String, _ text: String) async throws -> String {
        let expires = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400))
        let reply = try await server.api(
            .POST, "/feeds/activities", as: user,
            json: #"{"type":"story","feeds":["story:\#(user)"],"text":"\#(text)","expires_at":"\#(expires)"}"#)
        #expect(reply.status == 201, "\(reply.text)")
        return try #require(reply.body["activity"]["id"].string)
    }

    func timeline(_ server: TestServer, _ user: String, _ body: String = "{}") async throws -> TestServer.Reply {
        let reply = try await server.api(.POST, "/feeds/feed_groups/stories/feeds/\(user)", as: user, json: body)
        #expect(reply.status == 201, "\(reply.text)")
        return reply
    }

    func markWatched(_ server: TestServer, _ feed: String, _ ids: [String], as user: String) async throws -> TestServer.Reply {
        let parts = feed.split(separator: ":")
        let list = ids.map { "\"\($0)\"" }.joined(separator: ",")
        return try await server.api(
            .POST, "/feeds/feed_groups/\(parts[0])/feeds/\(parts[1])/activities/mark/batch", as: user,
            json: #"{"mark_watched":[\#(list)]}"#)
    }

    /// bob posts two stories and carl one; alice follows both from her stories timeline.
    func seed(_ server: TestServer) async throws -> (bob: [String], carl: String) {
        let bob = [try await story(server, by: "bob", "b1"), try await story(server, by: "bob", "b2")]
        let carl = try await story(server, by: "carl", "c1")
        #expect(try await server.api(.POST, "/feeds/feed_groups/stories/feeds/alice", as: "alice", json: "{}").status == 201)
        for friend in ["bob", "carl"] {
            let follow = try await server.api(
                .POST, "/feeds/follows", as: "alice", json: #"{"source":"stories:alice","target":"story:\#(friend)"}"#)
            #expect(follow.status == 201, "\(follow.text)")
        }
        return (bob, carl)
    }

    @Test func theTimelineIsGroupedPerAuthorAndMarksWatching() async throws {
        try await TestServer.run { server in
            let (bob, carl) = try await seed(server)
            let (socket, inbox, connection) = try await server.connected("alice")
            try await server.watch("stories:alice", as: "alice", connectionID: connection)

            var groups = try await timeline(server, "alice").body["aggregated_activities"].array
            try #require(groups.count == 2, "\(groups)")
            // Newest group first; a group's stories oldest first, as a viewer plays them.
            #expect(groups.map { $0["group"].string } == ["carl", "bob"])
            #expect(groups[1]["activities"].array.compactMap { $0["id"].string } == bob)
            #expect(groups[1]["activity_count"].int == 2 && groups[1]["user_count"].int == 1)
            #expect(groups[0]["activities"][0]["id"].string == carl)
            #expect(groups.allSatisfy { $0["is_watched"].bool == false })
            #expect(groups[1]["activities"].array.allSatisfy { $0["is_watched"].bool == false })

            // Watching bob's first story: the socket hears the group, now with it watched.
            let marked = try await markWatched(server, "stories:alice", [bob[0]], as: "alice")
            #expect(marked.status == 200, "\(marked.text)")
            let updated = try await inbox.event()
            #expect(updated["type"].string == "feeds.stories_feed.updated" && updated["fid"].string == "stories:alice", "\(updated)")
            #expect(updated["aggregated_activities"].array.count == 1)
            #expect(updated["aggregated_activities"][0]["group"].string == "bob")
            #expect(updated["aggregated_activities"][0]["is_watched"].bool == false)
            #expect(updated["aggregated_activities"][0]["activities"][0]["is_watched"].bool == true)
            let mark = try await inbox.event()
            #expect(mark["type"].string == "feeds.activity.marked" && mark["mark_watched"][0].string == bob[0], "\(mark)")

            _ = try await markWatched(server, "stories:alice", bob, as: "alice")
            groups = try await timeline(server, "alice").body["aggregated_activities"].array
            #expect(groups.first { $0["group"].string == "bob" }?["is_watched"].bool == true, "\(groups)")
            #expect(groups.first { $0["group"].string == "carl" }?["is_watched"].bool == false)

            // Reading bob's story feed: watched is the reader's own.
            let asAlice = try await server.api(.POST, "/feeds/feed_groups/story/feeds/bob", as: "alice", json: "{}")
            #expect(asAlice.body["activities"].array.allSatisfy { $0["is_watched"].bool == true }, "\(asAlice.text)")
            let asDora = try await server.api(.POST, "/feeds/feed_groups/story/feeds/bob", as: "dora", json: "{}")
            #expect(asDora.body["activities"].array.count == 2)
            #expect(asDora.body["activities"].array.allSatisfy { $0["is_watched"].bool == false }, "\(asDora.text)")
            // A story feed read directly is marked there too, for its reader.
            #expect(try await markWatched(server, "story:bob", [bob[1]], as: "dora").status == 200)
            let after = try await server.api(.POST, "/feeds/feed_groups/story/feeds/bob", as: "dora", json: "{}")
            #expect(after.body["activities"].array.compactMap { $0["is_watched"].bool } == [true, false], "\(after.text)")
            // A user feed tracks no watching: no is_watched there.
            let user = try await server.api(.POST, "/feeds/feed_groups/user/feeds/bob", as: "alice", json: "{}")
            #expect(user.body["activities"].array.allSatisfy { $0["is_watched"] == .null })
            try await socket.hangUp()
        }
    }

    @Test func groupsPageExactlyAndWatchedStoriesCanBeSkipped() async throws {
        try await TestServer.run { server in
            let (bob, _) = try await seed(server)
            let first = try await timeline(server, "alice", #"{"limit":1}"#)
            #expect(first.body["aggregated_activities"].array.map { $0["group"].string } == ["carl"])
            let next = try #require(first.body["next"].string, "\(first.text)")
            let second = try await timeline(server, "alice", #"{"limit":1,"next":"\#(next)"}"#)
            #expect(second.body["aggregated_activities"].array.map { $0["group"].string } == ["bob"])
            #expect(second.body["next"] == .null, "\(second.text)")
            expectAPIError(
                try await server.api(.POST, "/feeds/feed_groups/stories/feeds/alice", as: "alice", json: #"{"next":"bogus"}"#),
                status: 400, code: 4, field: "next")

            _ = try await markWatched(server, "stories:alice", [bob[0]], as: "alice")
            let skipping = try await server.api(
                .PUT, "/feeds/feed_groups/stories", as: nil, json: #"{"stories":{"track_watched":true,"skip_watched":true}}"#)
            #expect(skipping.status == 200, "\(skipping.text)")
            let groups = try await timeline(server, "alice").body["aggregated_activities"].array
            #expect(groups.first { $0["group"].string == "bob" }?["activities"].array.compactMap { $0["id"].string } == [bob[1]])
        }
    }

    @Test func anAppsOwnStoryGroupsWorkAsTheBuiltIns() async throws {
        try await TestServer.run { server in
            for (id, extra) in [
                ("my-story", ""), ("my-stories", #","aggregation":{"format":"{{ user_id }}"},"activity_selectors":[{"type":"following"}]"#),
            ] {
                let made = try await server.api(
                    .POST, "/feeds/feed_groups", as: nil,
                    json: #"{"id":"\#(id)","stories":{"skip_watched":false,"track_watched":true}\#(extra)}"#)
                #expect(made.status == 201, "\(made.text)")
            }
            let posted = try await server.api(
                .POST, "/feeds/activities", as: "bob", json: #"{"type":"story","feeds":["my-story:bob"],"text":"hi"}"#)
            #expect(posted.status == 201, "\(posted.text)")
            #expect(try await server.api(.POST, "/feeds/feed_groups/my-stories/feeds/alice", as: "alice", json: "{}").status == 201)
            #expect(
                try await server.api(
                    .POST, "/feeds/follows", as: "alice", json: #"{"source":"my-stories:alice","target":"my-story:bob"}"#
                ).status == 201)
            let read = try await server.api(.POST, "/feeds/feed_groups/my-stories/feeds/alice", as: "alice", json: "{}")
            #expect(read.body["aggregated_activities"][0]["group"].string == "bob", "\(read.text)")
            #expect(read.body["aggregated_activities"][0]["activities"][0]["is_watched"].bool == false)
        }
    }

    @Test func badMarksAreRefusedAndMarkNothing() async throws {
        try await TestServer.run { server in
            let (bob, _) = try await seed(server)
            // Another's private timeline; marks a story feed does not take; a group that tracks no watching.
            expectAPIError(try await markWatched(server, "stories:alice", [bob[0]], as: "dora"), status: 403, code: 17)
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/feed_groups/story/feeds/bob/activities/mark/batch", as: "alice", json: #"{"mark_all_read":true}"#),
                status: 400, code: 4)
            expectAPIError(try await markWatched(server, "user:bob", [bob[0]], as: "alice"), status: 400, code: 4, field: "feed_group_id")
            expectAPIError(
                try await markWatched(server, "story:bob", (0...100).map { "s\($0)" }, as: "alice"), status: 400, code: 4,
                field: "mark_watched")
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/feed_groups/notification/feeds/alice/activities/mark/batch", as: "alice",
                    json: #"{"mark_watched":["\#(bob[0])"]}"#), status: 400, code: 4, field: "mark_watched")
            // A story the reader may not read, and one that does not exist, are not marked.
            let hidden = try await server.api(
                .POST, "/feeds/activities", as: "bob",
                json: #"{"type":"story","feeds":["story:bob"],"text":"only me","visibility":"private"}"#)
            let hiddenID = try #require(hidden.body["activity"]["id"].string, "\(hidden.text)")
            #expect(try await markWatched(server, "story:bob", [hiddenID, "no-such-story"], as: "alice").status == 200)
            #expect(try await server.number("SELECT count(*) FROM watched_activities") == 0)
        }
    }
}
