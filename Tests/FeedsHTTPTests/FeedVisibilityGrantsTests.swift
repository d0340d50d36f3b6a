import FeedsCore
import FeedsPostgres
import FeedsTestSupport
import Foundation
import Testing

/// UpdateFeedVisibility over HTTP: what the app grants members, followers and other users at a
/// level is what every read, engagement, post, follow, `own_capabilities` and watch does from the
/// change on; what cannot be granted is a 400 that changes nothing.
@Suite struct FeedVisibilityGrantsTests {
    /// A level's grants as GetFeedVisibility shows them.
    static func grants(_ level: String, on server: TestServer) async throws -> [String: [String]] {
        let reply = try await server.api(.GET, "/feeds/feed_visibilities/\(level)", as: nil)
        #expect(reply.status == 200, "\(reply.text)")
        var grants: [String: [String]] = [:]
        for (role, capabilities) in reply.body["feed_visibility"]["grants"].object ?? [:] {
            grants[role] = capabilities.array.compactMap(\.string).sorted()
        }
        return grants
    }

    /// UpdateFeedVisibility with `roles`, as the server; returns the reply.
    static func update(_ level: String, _ roles: [String: [String]], on server: TestServer, as user: String? = nil)
        async throws -> TestServer.Reply
    {
        let body = try JSONSerialization.data(withJSONObject: ["grants": roles])
        return try await server.api(
            .PUT, "/feeds/feed_visibilities/\(level)", as: user, json: String(decoding: body, as: UTF8.self))
    }

    /// The reader's `own_capabilities` on `fid` (GetOrCreateFeed, which reads their membership and follows).
    static func capabilities(_ fid: String, as user: String, on server: TestServer) async throws -> Set<String> {
        let parts = fid.split(separator: ":")
        let reply = try await server.api(.POST, "/feeds/feed_groups/\(parts[0])/feeds/\(parts[1])", as: user, json: "{}")
        #expect(reply.status == 201, "\(reply.text)")
        return Set(reply.body["feed"]["own_capabilities"].array.compactMap(\.string))
    }

    static let read = ["read-feed", "read-activities", "query-follows", "update-own-activity", "delete-own-activity"]
    static let follow = ["follow", "unfollow"]

    @Test func membersPostIntoAFeedOnceGranted() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:club", owner: "owner")
            let added = try await server.api(
                .PATCH, "/feeds/feed_groups/user/feeds/club/members", as: "owner",
                json: #"{"operation":"upsert","members":[{"user_id":"mia"}]}"#)
            #expect(added.status == 200, "\(added.text)")
            let post = #"{"type":"post","feeds":["user:club"],"text":"from mia"}"#
            expectAPIError(try await server.api(.POST, "/feeds/activities", as: "mia", json: post), status: 403, code: 17)
            let own = try #require(try await server.addActivity(as: "mia", text: "moved later")["id"].string)
            let move = #"{"set":{"feeds":["user:mia","user:club"]}}"#
            expectAPIError(try await server.api(.PATCH, "/feeds/activities/\(own)", as: "mia", json: move), status: 403, code: 17)
            #expect(!(try await Self.capabilities("user:club", as: "mia", on: server)).contains("add-activity"))

            var visible = try await Self.grants("visible", on: server)
            visible["feed_member", default: []].append("add-activity")
            let updated = try await Self.update("visible", ["feed_member": visible["feed_member"]!], on: server)
            #expect(updated.status == 200, "\(updated.text)")
            #expect(updated.body["feed_visibility"]["grants"]["feed_member"].array.contains(.string("add-activity")))
            #expect(try await Self.grants("visible", on: server)["feed_member"]?.contains("add-activity") == true)

            let made = try await server.api(.POST, "/feeds/activities", as: "mia", json: post)
            #expect(made.status == 201, "\(made.text)")
            #expect(try await server.api(.PATCH, "/feeds/activities/\(own)", as: "mia", json: move).status == 200)
            let posted = try #require(made.body["activity"]["id"].string)
            #expect(try await server.timeline("user:club", as: "owner") == [posted, own])
            #expect(try await Self.capabilities("user:club", as: "mia", on: server).contains("add-activity"))
            // Others are not members; a members-only grant gives them nothing.
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/activities", as: "sam", json: post.replacingOccurrences(of: "mia", with: "sam")),
                status: 403, code: 17)
            #expect(!(try await Self.capabilities("user:club", as: "sam", on: server)).contains("add-activity"))
            // A public feed is another level: still its owner's alone.
            try await server.createFeed("user:square", owner: "owner", visibility: "public")
            _ = try await server.api(
                .PATCH, "/feeds/feed_groups/user/feeds/square/members", as: "owner",
                json: #"{"operation":"upsert","members":[{"user_id":"mia"}]}"#)
            expectAPIError(
                try await server.api(.POST, "/feeds/activities", as: "mia", json: #"{"type":"post","feeds":["user:square"]}"#),
                status: 403, code: 17)
        }
    }

    @Test func usersLoseReadingWhileFollowersKeepIt() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            try await server.createFeed("timeline:fred", owner: "fred")
            #expect(try await server.follow("timeline:fred", "user:alice", as: "fred").status == 201)
            let secret = try #require(try await server.addActivity(as: "alice", text: "for-followers-now")["id"].string)

            #expect(try await Self.update("visible", ["user": Self.follow], on: server).status == 200)
            expectAPIError(
                try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "sam", json: "{}"), status: 403, code: 17)
            expectAPIError(try await server.api(.GET, "/feeds/activities/\(secret)", as: "sam"), status: 404, code: 16)
            let found = try await server.api(
                .POST, "/feeds/activities/query", as: "sam", json: #"{"filter":{"user_id":"alice"}}"#)
            #expect(found.status / 100 == 2 && !found.text.contains("for-followers-now"), "\(found.text)")
            expectAPIError(
                try await server.api(.POST, "/feeds/activities/\(secret)/reactions", as: "sam", json: #"{"type":"like"}"#),
                status: 404, code: 16)
            // Users may still follow: fred's grant is his own.
            #expect(try await server.timeline("user:alice", as: "fred") == [secret])
            #expect(try await server.timeline("timeline:fred", as: "fred") == [secret])
            #expect(try await Self.capabilities("user:alice", as: "fred", on: server).isSuperset(of: Self.read))

            // Given back, read at once.
            var back = Self.read + Self.follow
            back += FeedCapabilitiesList.engage
            #expect(try await Self.update("visible", ["user": back], on: server).status == 200)
            #expect(try await server.api(.GET, "/feeds/activities/\(secret)", as: "sam").status == 200)
        }
    }

    @Test func readersNotGrantedEngagingAreRefusedAndWriteNothing() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            try await server.createFeed("timeline:fred", owner: "fred")
            #expect(try await server.follow("timeline:fred", "user:alice", as: "fred").status == 201)
            let activity = try #require(try await server.addActivity(as: "alice")["id"].string)
            let comment = try await server.api(
                .POST, "/feeds/comments", as: "fred",
                json: #"{"object_id":"\#(activity)","object_type":"activity","comment":"hi"}"#)
            let commentID = try #require(comment.body["comment"]["id"].string, "\(comment.text)")

            #expect(try await Self.update("visible", ["user": Self.read + Self.follow], on: server).status == 200)
            #expect(try await server.api(.GET, "/feeds/activities/\(activity)", as: "sam").status == 200)
            let attempts: [(String, String)] = [
                ("/feeds/activities/\(activity)/reactions", #"{"type":"like"}"#),
                ("/feeds/comments", #"{"object_id":"\#(activity)","object_type":"activity","comment":"no"}"#),
                ("/feeds/activities/\(activity)/bookmarks", "{}"),
                ("/feeds/comments/\(commentID)/reactions", #"{"type":"like"}"#),
                ("/feeds/comments/\(commentID)/bookmarks", "{}"),
            ]
            for (path, body) in attempts {
                let reply = try await server.api(.POST, path, as: "sam", json: body)
                expectAPIError(reply, status: 403, code: 17)
                #expect(reply.body["message"].string?.contains("UpdateFeedVisibility") == true, "\(path): \(reply.text)")
            }
            #expect(!(try await Self.capabilities("user:alice", as: "sam", on: server)).contains("add-comment"))
            // The follower keeps theirs.
            #expect(
                try await server.api(.POST, "/feeds/activities/\(activity)/reactions", as: "fred", json: #"{"type":"like"}"#)
                    .status == 201)
            let after = try await server.api(.GET, "/feeds/activities/\(activity)", as: "alice")
            #expect(
                after.body["activity"]["reaction_count"].int == 1 && after.body["activity"]["comment_count"].int == 1,
                "\(after.text)")
            #expect(after.body["activity"]["bookmark_count"].int == 0, "\(after.text)")
        }
    }

    @Test func membersFollowAMembersFeedOnceGranted() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:club", owner: "owner", visibility: "members")
            _ = try await server.api(
                .PATCH, "/feeds/feed_groups/user/feeds/club/members", as: "owner",
                json: #"{"operation":"upsert","members":[{"user_id":"mia"}]}"#)
            try await server.createFeed("timeline:mia", owner: "mia")
            try await server.createFeed("timeline:sam", owner: "sam")
            expectAPIError(try await server.follow("timeline:mia", "user:club", as: "mia"), status: 403, code: 17)

            let members = try await Self.grants("members", on: server)["feed_member"] ?? []
            #expect(try await Self.update("members", ["feed_member": members + Self.follow], on: server).status == 200)
            let followed = try await server.follow("timeline:mia", "user:club", as: "mia")
            #expect(followed.status == 201 && followed.body["follow"]["status"].string == "accepted", "\(followed.text)")
            expectAPIError(try await server.follow("timeline:sam", "user:club", as: "sam"), status: 403, code: 17)
            #expect(try await Self.capabilities("user:club", as: "mia", on: server).contains("follow"))
        }
    }

    @Test func aMemberRoleChangesTheFeedAndAnswersItsFollowers() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:club", owner: "owner", visibility: "followers")
            let added = try await server.api(
                .PATCH, "/feeds/feed_groups/user/feeds/club/members", as: nil,
                json: #"{"operation":"upsert","members":[{"user_id":"mod","role":"feed_moderator"},{"user_id":"mia"}]}"#)
            #expect(added.status == 200, "\(added.text)")
            let rename = #"{"name":"Renamed"}"#
            expectAPIError(
                try await server.api(.PUT, "/feeds/feed_groups/user/feeds/club", as: "mod", json: rename), status: 403, code: 17)

            // The club's members read it; those holding feed_moderator also run it.
            let roles = ["feed_moderator": ["update-feed", "update-feed-followers"], "feed_member": Self.read]
            let granted = try await Self.update("followers", roles, on: server)
            #expect(granted.status == 200, "\(granted.text)")
            #expect(try await Self.grants("followers", on: server)["feed_moderator"] == ["update-feed", "update-feed-followers"])
            let renamed = try await server.api(.PUT, "/feeds/feed_groups/user/feeds/club", as: "mod", json: rename)
            #expect(renamed.status == 201 && renamed.body["feed"]["name"].string == "Renamed", "\(renamed.text)")
            expectAPIError(
                try await server.api(.PUT, "/feeds/feed_groups/user/feeds/club", as: "mia", json: rename), status: 403, code: 17)
            let capabilities = try await Self.capabilities("user:club", as: "mod", on: server)
            #expect(capabilities.isSuperset(of: ["update-feed", "update-feed-followers"]), "\(capabilities)")
            #expect(!(try await Self.capabilities("user:club", as: "mia", on: server)).contains("update-feed"))

            // Answering and removing followers.
            for user in ["sam", "tom"] {
                try await server.createFeed("timeline:\(user)", owner: user)
                let asked = try await server.follow("timeline:\(user)", "user:club", as: user)
                #expect(asked.body["follow"]["status"].string == "pending", "\(asked.text)")
            }
            let sam = #"{"source":"timeline:sam","target":"user:club"}"#
            expectAPIError(try await server.api(.POST, "/feeds/follows/accept", as: "mia", json: sam), status: 403, code: 17)
            #expect(try await server.api(.POST, "/feeds/follows/accept", as: "mod", json: sam).status == 201)
            expectAPIError(
                try await server.api(.DELETE, "/feeds/follows/timeline:sam/user:club", as: "mia"), status: 403, code: 17)
            #expect(try await server.api(.DELETE, "/feeds/follows/timeline:sam/user:club", as: "mod").status == 200)
            #expect(try await server.number("SELECT follower_count FROM feeds WHERE fid = 'user:club'") == 0)

            // Taken away: tom's request waits for the owner again.
            #expect(try await Self.update("followers", ["feed_moderator": []], on: server).status == 200)
            #expect(try await Self.grants("followers", on: server)["feed_moderator"] == nil)
            let tom = #"{"source":"timeline:tom","target":"user:club"}"#
            expectAPIError(try await server.api(.POST, "/feeds/follows/accept", as: "mod", json: tom), status: 403, code: 17)
            expectAPIError(
                try await server.api(.PUT, "/feeds/feed_groups/user/feeds/club", as: "mod", json: rename), status: 403, code: 17)
        }
    }

    @Test func aGrantTakenAwayEndsTheWatchesItNoLongerAllows() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            try await server.createFeed("user:dave", owner: "dave", visibility: "public")
            let (socket, inbox, id) = try await server.connected("sam")
            try await server.watch("user:alice", as: "sam", connectionID: id)
            try await server.watch("user:dave", as: "sam", connectionID: id)
            let before = try #require(try await server.addActivity(as: "alice", text: "before")["id"].string)
            #expect(try await inbox.event()["activity"]["id"].string == before)

            #expect(try await Self.update("visible", ["user": Self.follow], on: server).status == 200)
            // The watch ends when this node hears of the change: until a round where alice's post
            // no longer comes before dave's, each round posts to both again.
            try await eventually("sam's watch of user:alice to end") {
                _ = try await server.addActivity(as: "alice", text: "after")
                let sentinel = try #require(try await server.addActivity(as: "dave", text: "sentinel")["id"].string)
                var sawAlice = false
                while true {
                    let event = try await inbox.event()
                    if event["activity"]["id"].string == sentinel { return !sawAlice }
                    if event["activity"]["user"]["id"].string == "alice" { sawAlice = true }
                }
            }
            // Watching again is a read, refused.
            let again = try await server.api(
                .POST, "/feeds/feed_groups/user/feeds/alice", as: "sam", json: #"{"watch":true}"#, query: "&connection_id=\(id)")
            expectAPIError(again, status: 403, code: 17)
            try await socket.hangUp()
        }
    }

    @Test func aTimelinesWatcherGetsOnlyWhatItsOwnerMayRead() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            try await server.createFeed("user:dave", owner: "dave", visibility: "public")
            try await server.createFeed("timeline:fred", owner: "fred")
            for target in ["user:alice", "user:dave"] {
                #expect(try await server.follow("timeline:fred", target, as: "fred").status == 201)
            }
            let (socket, inbox, id) = try await server.connected("fred")
            try await server.watch("timeline:fred", as: "fred", connectionID: id)
            // Nobody but the owner reads `visible` feeds now; fred still follows alice's.
            for role in ["user", "feed_follower", "feed_member"] {
                #expect(try await Self.update("visible", [role: Self.follow], on: server).status == 200)
            }
            _ = try await server.addActivity(as: "alice", text: "not for fred any more")
            let sentinel = try #require(try await server.addActivity(as: "dave", text: "public")["id"].string)
            let event = try await inbox.event()
            #expect(event["activity"]["id"].string == sentinel, "\(event)")
            try await socket.hangUp()
        }
    }

    @Test func hostileGrantsAreRefusedAndChangeNothing() async throws {
        try await TestServer.run { server in
            let before = try await Self.grants("visible", on: server)
            expectAPIError(
                try await Self.update("visible", ["user": Self.read], on: server, as: "mallory"), status: 403, code: 17)
            expectAPIError(try await Self.update("secret", ["user": Self.read], on: server), status: 404, code: 16)
            let refused: [[String: [String]]] = [
                ["user": ["follow"]],
                ["user": ["read-feed"]],
                ["feed_owner": ["read-feed"]],
                ["moderator": Self.read],
                ["user": Self.read + ["fly"]],
                ["user": Self.read + [String(repeating: "x", count: 10_000)]],
                ["feed_moderator": Self.read],
                ["feed_follower": Self.read + ["update-feed-followers"]],
                ["user": FeedCapabilitiesList.engage],
                Dictionary(uniqueKeysWithValues: (0..<9).map { ("role\($0)", Self.read) }),
                ["user": Array(repeating: "read-feed", count: 65)],
            ]
            for roles in refused {
                let reply = try await Self.update("visible", roles, on: server)
                expectAPIError(reply, status: 400, code: 4)
                #expect(reply.text.count < 2_000, "an error names what it refused, briefly")
            }
            let notJSON = try await server.api(
                .PUT, "/feeds/feed_visibilities/visible", as: nil, json: #"{"grants":{"user":"read-feed"}}"#)
            expectAPIError(notJSON, status: 400, code: 4)
            #expect(try await Self.grants("visible", on: server) == before)
            // The same grants again are no change at all.
            #expect(try await Self.update("visible", before, on: server).status == 200)
            #expect(try await Self.grants("visible", on: server) == before)
        }
    }

    @Test func anotherNodeEnforcesAtOnceAndShowsTheGrantsOnNotice() async throws {
        try await TestServer.run { server in
            let other = try await FeedsNode(
                databaseURL: server.databaseURL, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
                port: try freeLoopbackPort(), environment: ["FEEDS_SETTINGS_REFRESH": "3600"])
            defer { other.stop() }
            try await server.createFeed("user:club", owner: "owner")
            _ = try await server.api(
                .PATCH, "/feeds/feed_groups/user/feeds/club/members", as: "owner",
                json: #"{"operation":"upsert","members":[{"user_id":"mia"}]}"#)
            let members = try await Self.grants("visible", on: server)["feed_member"] ?? []
            #expect(try await Self.update("visible", ["feed_member": members + ["add-activity"]], on: server).status == 200)

            let token = try await server.token("mia")
            let headers = [("Stream-Auth-Type", "jwt"), ("Authorization", token), ("Content-Type", "application/json")]
            let post = try await TestServer.send(
                .POST, "\(other.baseURL)/api/v2/feeds/activities?api_key=\(server.apiKey)",
                body: Data(#"{"type":"post","feeds":["user:club"],"text":"on the other node"}"#.utf8), headers: headers)
            #expect(post.status == 201, "\(post.text)")
            try await eventually("the other node's own_capabilities to say add-activity") {
                let read = try await TestServer.send(
                    .POST, "\(other.baseURL)/api/v2/feeds/feed_groups/user/feeds/club?api_key=\(server.apiKey)",
                    body: Data("{}".utf8), headers: headers)
                return read.body["feed"]["own_capabilities"].array.contains(.string("add-activity"))
            }
        }
    }
}

/// Stream's capability names of engaging, as a level's grants list them.
enum FeedCapabilitiesList {
    static let engage = [
        "add-activity-reaction", "delete-own-activity-reaction", "add-comment", "add-comment-reaction",
        "delete-own-comment-reaction", "update-own-comment", "delete-own-comment", "add-activity-bookmark",
        "update-own-activity-bookmark", "delete-own-activity-bookmark",
    ]
}
