import FeedsCore
import FeedsLoadTest
import FeedsTestSupport
import Foundation
import Testing

/// The running server against `FeedPermissions` (the table of `docs/permissions.md`): for every
/// visibility and role, every endpoint that reads, engages with, posts into, updates, follows or
/// manages a feed answers as the table says, and a refusal carries nothing of what it protects.
@Suite struct AuthorizationMatrixTests {
    /// One feed of each visibility, `user:owner-<v>`, with a public activity whose text is secret,
    /// a follower (accepted), a pending follower and a member; strangers are anyone else.
    struct Cast {
        let visibility: FeedVisibility
        var owner: String { "owner-\(visibility.rawValue)" }
        var fid: String { "user:\(owner)" }
        var secret: String { "secret-of-\(visibility.rawValue)" }
        func user(_ role: FeedRole) -> String? {
            switch role {
            case .server: nil
            case .owner: owner
            case .follower: "follower-\(visibility.rawValue)"
            case .pending: "pending-\(visibility.rawValue)"
            case .member: "member-\(visibility.rawValue)"
            case .stranger: "stranger-\(visibility.rawValue)"
            }
        }
    }

    /// Sets a cast up; returns the secret activity's id.
    func stage(_ cast: Cast, on server: TestServer) async throws -> String {
        try await server.createFeed(cast.fid, owner: cast.owner, visibility: cast.visibility.rawValue)
        for role in [FeedRole.follower, .pending] {
            let user = try #require(cast.user(role))
            try await server.createFeed("timeline:\(user)", owner: user)
            let status = role == .follower ? "accepted" : "pending"
            let made = try await server.follow("timeline:\(user)", cast.fid, as: nil, extra: #""status":"\#(status)""#)
            #expect(made.status == 201 && made.body["follow"]["status"].string == status, "\(made.text)")
        }
        let member = try #require(cast.user(.member))
        let made = try await server.api(
            .PATCH, "/feeds/feed_groups/user/feeds/\(cast.owner)/members", as: cast.owner,
            json: #"{"operation":"upsert","members":[{"user_id":"\#(member)"}]}"#)
        #expect(made.status == 200, "\(made.text)")
        return try #require(try await server.addActivity(as: cast.owner, feeds: [cast.fid], text: cast.secret)["id"].string)
    }

    @Test(arguments: FeedVisibility.allCases) func everyRoleGetsWhatTheTableSays(_ visibility: FeedVisibility) async throws {
        try await TestServer.run { server in
            let cast = Cast(visibility: visibility)
            let activity = try await stage(cast, on: server)
            for role in FeedRole.allCases {
                try await check(role, cast, activity, on: server)
            }
        }
    }

    func check(_ role: FeedRole, _ cast: Cast, _ activity: String, on server: TestServer) async throws {
        let user = cast.user(role)
        let label = "\(role.rawValue) on \(cast.visibility.rawValue)"
        let group = "/feeds/feed_groups/user/feeds/\(cast.owner)"

        // read: the page, the activity by every path, its comments and reactions.
        let reads = FeedPermissions.allows(.read, role, cast.visibility)
        let page = try await server.api(.POST, group, as: user, json: "{}")
        #expect(page.status == (reads ? 201 : 403), "\(label): \(page.text)")
        for body in [#"{"filter":{"feeds":{"$in":["\#(cast.fid)"]}}}"#, #"{"filter":{"user_id":"\#(cast.owner)"}}"#] {
            let found = try await server.api(.POST, "/feeds/activities/query", as: user, json: body)
            #expect(found.status == 201 || found.status == 200, "\(label): \(found.text)")
            #expect(found.text.contains(cast.secret) == reads, "\(label) \(body): \(found.text)")
        }
        for path in ["/feeds/activities/\(activity)", "/feeds/comments?object_id=\(activity)&object_type=activity"] {
            let parts = path.split(separator: "?", maxSplits: 1).map(String.init)
            let reply = try await server.api(.GET, parts[0], as: user, query: parts.count > 1 ? "&" + parts[1] : "")
            #expect(reply.status == (reads ? 200 : 404), "\(label) \(path): \(reply.text)")
            if !reads { #expect(!reply.text.contains(cast.secret), "\(label) \(path)") }
        }
        let reactions = try await server.api(.POST, "/feeds/activities/\(activity)/reactions/query", as: user, json: "{}")
        #expect((reactions.status / 100 == 2) == reads, "\(label): \(reactions.text)")

        // engage: react, comment, bookmark (a server call names its user).
        let engages = FeedPermissions.allows(.engage, role, cast.visibility)
        let actor = user.map { _ in "" } ?? #","user_id":"\#(cast.owner)""#
        let reacted = try await server.api(
            .POST, "/feeds/activities/\(activity)/reactions", as: user, json: #"{"type":"like"\#(actor)}"#)
        #expect((reacted.status == 201) == engages, "\(label): \(reacted.text)")
        let commented = try await server.api(
            .POST, "/feeds/comments", as: user,
            json: #"{"object_id":"\#(activity)","object_type":"activity","comment":"hi"\#(actor)}"#)
        #expect((commented.status == 201) == engages, "\(label): \(commented.text)")
        let bookmarked = try await server.api(
            .POST, "/feeds/activities/\(activity)/bookmarks", as: user, json: #"{\#(actor.dropFirst())}"#)
        #expect((bookmarked.status == 201) == engages, "\(label): \(bookmarked.text)")
        for refused in [reacted, commented, bookmarked] where !engages {
            #expect(!refused.text.contains(cast.secret), "\(label): \(refused.text)")
        }

        // post: AddActivity into the feed, and an own activity moved into it by an update.
        let posts = FeedPermissions.allows(.post, role, cast.visibility)
        let poster = user ?? "server-poster"
        let added = try await server.api(
            .POST, "/feeds/activities", as: user,
            json: #"{"type":"post","text":"x","feeds":["\#(cast.fid)"]\#(user == nil ? #","user_id":"server-poster""# : "")}"#)
        #expect((added.status == 201) == posts, "\(label): \(added.text)")
        let own = try #require(
            try await server.addActivity(as: poster, feeds: ["user:\(poster)"], byServer: user == nil)["id"].string)
        let moved = try await server.api(
            .PATCH, "/feeds/activities/\(own)", as: user, json: #"{"set":{"feeds":["user:\#(poster)","\#(cast.fid)"]}}"#)
        #expect((moved.status == 200) == posts, "\(label): \(moved.text)")
        let replaced = try await server.api(
            .PUT, "/feeds/activities/\(own)", as: user, json: #"{"text":"y","feeds":["user:\#(poster)","\#(cast.fid)"]}"#)
        #expect((replaced.status == 201) == posts, "\(label): \(replaced.text)")

        // update the feed.
        let updated = try await server.api(.PUT, group, as: user, json: #"{"description":"by \#(role.rawValue)"}"#)
        #expect((updated.status == 201) == FeedPermissions.allows(.update, role, cast.visibility), "\(label): \(updated.text)")

        // follow, from a feed of the caller's own (strangers only: the others follow already).
        if role == .stranger, let user {
            try await server.createFeed("timeline:\(user)", owner: user)
            let followed = try await server.follow("timeline:\(user)", cast.fid, as: user)
            let follows = FeedPermissions.allows(.follow, role, cast.visibility)
            #expect((followed.status == 201) == follows, "\(label): \(followed.text)")
            if follows {
                let status = cast.visibility.followStatus == .pending ? "pending" : "accepted"
                #expect(followed.body["follow"]["status"].string == status, "\(label): \(followed.text)")
                _ = try await server.api(.DELETE, "/feeds/follows/timeline:\(user)/\(cast.fid)", as: user)
            }
        }

        // manage followers: remove the accepted follower (strangers and the pending user try; they must fail).
        if role == .stranger || role == .pending {
            let follower = try #require(cast.user(.follower))
            let removed = try await server.api(.DELETE, "/feeds/follows/timeline:\(follower)/\(cast.fid)", as: user)
            #expect(removed.status == 403, "\(label): \(removed.text)")
        }
    }

    @Test func theOwnerRemovesAFollowerWhoThenReadsNothing() async throws {
        try await TestServer.run { server in
            let cast = Cast(visibility: .followers)
            let activity = try await stage(cast, on: server)
            let follower = try #require(cast.user(.follower))
            let removed = try await server.api(.DELETE, "/feeds/follows/timeline:\(follower)/\(cast.fid)", as: cast.owner)
            #expect(removed.status == 200, "\(removed.text)")
            #expect(removed.body["follow"]["source_feed"]["feed"].string == "timeline:\(follower)", "\(removed.text)")
            expectAPIError(
                try await server.api(.POST, "/feeds/feed_groups/user/feeds/\(cast.owner)", as: follower, json: "{}"),
                status: 403, code: 17)
            #expect(try await server.api(.GET, "/feeds/activities/\(activity)", as: follower).status == 404)
            #expect(!(try await server.timeline("timeline:\(follower)", as: follower)).contains(activity))
            let counted = try await server.api(.POST, "/feeds/feed_groups/user/feeds/\(cast.owner)", as: cast.owner, json: "{}")
            #expect(counted.body["feed"]["follower_count"].int == 0, "\(counted.text)")
        }
    }

    /// The same table over the WebSocket: watching a feed needs it readable, and only those who
    /// may read it get its events (a write they must not see, then their own marker post).
    @Test(arguments: FeedVisibility.allCases) func everyRoleWatchesAsTheTableSays(_ visibility: FeedVisibility) async throws {
        try await TestServer.run { server in
            let cast = Cast(visibility: visibility)
            _ = try await stage(cast, on: server)
            var sockets: [(role: FeedRole, user: String, inbox: Inbox, socket: RealtimeSocket)] = []
            for role in [FeedRole.owner, .follower, .pending, .stranger] {
                let user = try #require(cast.user(role))
                let (socket, inbox, id) = try await server.connected(user)
                let watched = try await server.api(
                    .POST, "/feeds/feed_groups/user/feeds/\(cast.owner)", as: user, json: #"{"watch":true}"#,
                    query: "&connection_id=\(id)")
                let reads = FeedPermissions.allows(.read, role, visibility)
                #expect(watched.status == (reads ? 201 : 403), "\(role.rawValue) on \(visibility.rawValue): \(watched.text)")
                if role != .owner { try await server.watch("user:\(user)", as: user, connectionID: id) }
                sockets.append((role, user, inbox, socket))
            }
            try await server.addActivity(as: cast.owner, feeds: [cast.fid], text: "news of \(visibility.rawValue)")
            for (role, user, inbox, socket) in sockets {
                let reads = FeedPermissions.allows(.read, role, visibility)
                if role != .owner { try await server.addActivity(as: user, text: "marker of \(user)") }
                // Events come in order: the owner's news, if it comes, before the watcher's own marker.
                let last = role == .owner ? "news of \(visibility.rawValue)" : "marker of \(user)"
                var seen: [String] = []
                while seen.last != last { seen.append(try await inbox.event()["activity"]["text"].string ?? "") }
                #expect(
                    seen.contains("news of \(visibility.rawValue)") == reads,
                    "\(role.rawValue) on \(visibility.rawValue): \(seen)")
                try await socket.hangUp()
            }
        }
    }
}
