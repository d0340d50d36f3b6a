import AsyncHTTPClient
import FeedsCore
import FeedsPostgres
import FeedsTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Feed groups through the real server, as Stream's setup scripts make them: the six built-ins
/// are rows with Stream's defaults, an app's own group is created, used, changed, soft-deleted,
/// restored and removed, and a feed of a group that does not exist is refused everywhere.
@Suite struct FeedGroupTests {
    func group(_ server: TestServer, _ id: String, query: String = "") async throws -> TestServer.Reply {
        try await server.api(.GET, "/feeds/feed_groups/\(id)", as: nil, query: query)
    }

    /// AddActivity's reply, whatever its status.
    func post(_ server: TestServer, as user: String, to feeds: [String]) async throws -> TestServer.Reply {
        let list = feeds.map { "\"\($0)\"" }.joined(separator: ",")
        return try await server.api(
            .POST, "/feeds/activities", as: nil, json: #"{"user_id":"\#(user)","type":"post","feeds":[\#(list)],"text":"hi"}"#)
    }

    @Test func theBuiltInsAreListedWithStreamsDefaults() async throws {
        try await TestServer.run { server in
            let list = try await server.api(.GET, "/feeds/feed_groups", as: nil)
            #expect(list.status == 200, "\(list.text)")
            let groups = list.body["groups"]
            #expect(Set(groups.object?.keys.map { $0 } ?? []) == FeedGroup.builtIn, "\(list.text)")
            #expect(groups["user"]["default_visibility"].string == "visible")
            #expect(groups["timeline"]["default_visibility"].string == "private")
            #expect(groups["timeline"]["activity_selectors"][0]["type"].string == "following")
            let bell = groups["notification"]
            #expect(bell["aggregation"]["format"].string == #"{{ target_id }}_{{ type }}_{{ time.strftime("%Y-%m-%d") }}"#)
            #expect(bell["notification"]["track_seen"].bool == true && bell["notification"]["track_read"].bool == true)
            #expect(bell["id"].string == "notification" && bell["created_at"].int != nil && bell["updated_at"].int != nil)
        }
    }

    @Test func anAppsGroupIsCreatedUsedChangedDeletedAndRestored() async throws {
        try await TestServer.run { server in
            // Before it exists, its feeds are refused everywhere, and nothing is written.
            expectAPIError(
                try await post(server, as: "alice", to: ["user:alice", "hashtag:swift"]), status: 400, code: 4, field: "feeds")
            expectAPIError(
                try await server.api(.POST, "/feeds/feed_groups/hashtag/feeds/swift", as: nil, json: #"{"user_id":"alice"}"#),
                status: 400, code: 4, field: "feed_group_id")
            #expect(try await server.number("SELECT count(*) FROM activities") == 0)

            let created = try await server.api(
                .POST, "/feeds/feed_groups", as: nil,
                json: #"{"id":"hashtag","default_visibility":"public","custom":{"color":"blue"}}"#)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.body["feed_group"]["id"].string == "hashtag")
            #expect(created.body["feed_group"]["default_visibility"].string == "public")
            #expect(created.body["feed_group"]["custom"]["color"].string == "blue")
            expectAPIError(
                try await server.api(.POST, "/feeds/feed_groups", as: nil, json: #"{"id":"hashtag"}"#), status: 409, code: 4)
            let again = try await server.api(
                .POST, "/feeds/feed_groups/hashtag", as: nil, json: #"{"default_visibility":"private"}"#)
            #expect(again.status == 200 && again.body["was_created"].bool == false, "\(again.text)")
            #expect(again.body["feed_group"]["default_visibility"].string == "public", "an existing group is not changed")

            // Its feeds take its visibility; a changed visibility applies to the feeds made after.
            let posted = try await post(server, as: "alice", to: ["user:alice", "hashtag:swift"])
            #expect(posted.status == 201, "\(posted.text)")
            let swift = try await server.api(.POST, "/feeds/feed_groups/hashtag/feeds/swift", as: "bob", json: "{}")
            #expect(swift.body["feed"]["visibility"].string == "public", "\(swift.text)")
            let changed = try await server.api(
                .PUT, "/feeds/feed_groups/hashtag", as: nil, json: #"{"default_visibility":"followers"}"#)
            #expect(changed.status == 200 && changed.body["feed_group"]["default_visibility"].string == "followers")
            #expect(changed.body["feed_group"]["custom"]["color"].string == "blue", "what an update leaves out stays")
            let rust = try await server.api(.POST, "/feeds/feed_groups/hashtag/feeds/rust", as: nil, json: #"{"user_id":"carl"}"#)
            #expect(rust.body["feed"]["visibility"].string == "followers", "\(rust.text)")
            #expect(
                try await server.api(.POST, "/feeds/feed_groups/hashtag/feeds/swift", as: "bob", json: "{}")
                    .body["feed"]["visibility"].string == "public")

            // Soft-deleted: hidden, its feeds refused, its id taken until restored.
            #expect(try await server.api(.DELETE, "/feeds/feed_groups/hashtag", as: nil).status == 200)
            expectAPIError(try await group(server, "hashtag"), status: 404, code: 16)
            #expect(
                try await group(server, "hashtag", query: "&include_soft_deleted=true").body["feed_group"]["deleted_at"].int
                    != nil)
            #expect(try await server.api(.GET, "/feeds/feed_groups", as: nil).body["groups"]["hashtag"] == .null)
            #expect(
                try await server.api(.GET, "/feeds/feed_groups", as: nil, query: "&include_soft_deleted=true")
                    .body["groups"]["hashtag"]["id"].string == "hashtag")
            expectAPIError(try await post(server, as: "alice", to: ["hashtag:swift"]), status: 400, code: 4, field: "feeds")
            expectAPIError(
                try await server.follow("timeline:bob", "hashtag:swift", as: "bob"), status: 400, code: 4, field: "target")
            expectAPIError(
                try await server.api(.POST, "/feeds/feed_groups", as: nil, json: #"{"id":"hashtag"}"#), status: 409, code: 4)
            let restored = try await server.api(.POST, "/feeds/feed_groups/hashtag/restore", as: nil)
            #expect(restored.status == 200 && restored.body["feed_group"]["deleted_at"] == .null, "\(restored.text)")
            let reading = try await server.api(.POST, "/feeds/feed_groups/hashtag/feeds/swift", as: "bob", json: "{}")
            #expect(reading.body["activities"].array.count == 1, "its feeds come back with it: \(reading.text)")

            // Removed for good: the id is free again; the feeds wait for a group of that name.
            #expect(
                try await server.api(.DELETE, "/feeds/feed_groups/hashtag", as: nil, query: "&hard_delete=true").status == 200)
            expectAPIError(try await group(server, "hashtag", query: "&include_soft_deleted=true"), status: 404, code: 16)
            #expect(try await server.api(.POST, "/feeds/feed_groups", as: nil, json: #"{"id":"hashtag"}"#).status == 201)
            #expect(try await server.number("SELECT count(*) FROM feeds WHERE group_id = 'hashtag'") == 2)

            // Every change is in the admin audit list.
            #expect(
                try await server.number("SELECT count(*) FROM app_settings_audit WHERE changes[1] LIKE 'feed_groups.hashtag:%'")
                    == 6)
        }
    }

    @Test func badChangesAreRefusedAndWriteNothing() async throws {
        try await TestServer.run { server in
            let before = try await server.api(.GET, "/feeds/feed_groups", as: nil).body["groups"]
            typealias Refusal = (what: String, method: HTTPMethod, path: String, json: String, status: Int, field: String?)
            var refusals: [Refusal] = []
            refusals += [
                ("a user token", .POST, "/feeds/feed_groups", #"{"id":"mine"}"#, 403, nil),
                ("a bad id", .POST, "/feeds/feed_groups", #"{"id":"has space"}"#, 400, nil),
                ("a long id", .POST, "/feeds/feed_groups", #"{"id":"\#(String(repeating: "g", count: 129))"}"#, 400, nil),
                ("a visibility", .POST, "/feeds/feed_groups", #"{"id":"g","default_visibility":"everyone"}"#, 400, nil),
                (
                    "aggregation off the bell", .POST, "/feeds/feed_groups", #"{"id":"g","aggregation":{"format":"{{ type }}"}}"#,
                    400,
                    "aggregation"
                ),
                (
                    "a format with no variable", .PUT, "/feeds/feed_groups/notification", #"{"aggregation":{"format":"all"}}"#,
                    400,
                    "aggregation.format"
                ),
                (
                    "a format that is code", .PUT, "/feeds/feed_groups/notification",
                    #"{"aggregation":{"format":"{% for x in y %}"}}"#, 400, "aggregation.format"
                ),
                (
                    "an unknown variable", .PUT, "/feeds/feed_groups/notification",
                    #"{"aggregation":{"format":"{{ secret_key }}"}}"#, 400, "aggregation.format"
                ),
                (
                    "a ranking of another kind", .POST, "/feeds/feed_groups",
                    #"{"id":"g","ranking":{"type":"interest","score":"1"}}"#, 400, "ranking.type"
                ),
                (
                    "a hostile score", .POST, "/feeds/feed_groups",
                    #"{"id":"g","ranking":{"type":"expression","score":"1; DROP TABLE feeds"}}"#, 400, "ranking.score"
                ),
                (
                    "ranking the bell", .PUT, "/feeds/feed_groups/notification",
                    #"{"ranking":{"type":"expression","score":"1"}}"#, 400, "ranking"
                ),
                (
                    "a selector", .POST, "/feeds/feed_groups", #"{"id":"g","activity_selectors":[{"type":"proximity"}]}"#, 400,
                    "activity_selectors[0].type"
                ),
                (
                    "processors", .POST, "/feeds/feed_groups", #"{"id":"g","activity_processors":[{"type":"x"}]}"#, 400,
                    "activity_processors"
                ),
                (
                    "huge custom", .POST, "/feeds/feed_groups",
                    #"{"id":"g","custom":{"x":"\#(String(repeating: "x", count: 20_000))"}}"#, 400, "custom"
                ),
                ("deleting a built-in", .DELETE, "/feeds/feed_groups/user", "", 400, "id"),
                ("changing a missing group", .PUT, "/feeds/feed_groups/nope", "{}", 404, nil),
                ("restoring a missing group", .POST, "/feeds/feed_groups/nope/restore", "", 404, nil),
            ]
            for (what, method, path, json, status, field) in refusals {
                let reply = try await server.api(
                    method, path, as: what == "a user token" ? "alice" : nil, json: json.isEmpty ? nil : json)
                #expect(reply.status == status, "\(what): \(reply.text)")
                expectAPIError(reply, status: status, code: [400: 4, 403: 17, 404: 16][status] ?? -1, field: field)
            }
            for (method, path) in [(HTTPMethod.GET, "/feeds/feed_groups"), (.GET, "/feeds/feed_groups/user")] {
                #expect(try await server.api(method, path, as: "alice").status == 403)
            }
            #expect(try await server.api(.GET, "/feeds/feed_groups", as: nil).body["groups"] == before, "nothing changed")
            #expect(try await server.number("SELECT count(*) FROM feed_groups") == 6)
        }
    }

    @Test func theNotificationGroupsFormatDecidesTheGroups() async throws {
        try await TestServer.run { server in
            let changed = try await server.api(
                .PUT, "/feeds/feed_groups/notification", as: nil,
                json: #"{"aggregation":{"format":"{{ type }}"},"notification":{"track_seen":true,"track_read":true}}"#)
            #expect(changed.status == 200, "\(changed.text)")
            let notify = #""create_notification_activity":true"#
            for text in ["one", "two"] {
                let post = try #require(try await server.addActivity(as: "alice", text: text)["id"].string)
                #expect(try await server.react(post, "like", as: "bob", extra: notify).status == 201)
            }
            let bell = try await server.api(.POST, "/feeds/feed_groups/notification/feeds/alice", as: "alice", json: "{}")
            let groups = bell.body["aggregated_activities"].array
            #expect(groups.count == 1 && groups.first?["group"].string == "reaction", "\(bell.text)")
            #expect(groups.first?["activity_count"].int == 2)
        }
    }

    @Test func aGroupMadeOnOneNodeIsUsableOnTheOtherAtOnce() async throws {
        try await TestServer.run { server in
            let other = try await FeedsNode(
                databaseURL: server.databaseURL, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
                port: try freeLoopbackPort(), environment: ["FEEDS_SETTINGS_REFRESH": "3600"])
            defer { other.stop() }
            let token = try await server.token(nil)
            @Sendable func onOther(_ method: HTTPMethod, _ path: String, _ json: String) async throws -> TestServer.Reply {
                try await TestServer.send(
                    method, "\(other.baseURL)/api/v2\(path)?api_key=\(server.apiKey)", body: Data(json.utf8),
                    headers: [("Stream-Auth-Type", "jwt"), ("Authorization", token), ("Content-Type", "application/json")])
            }
            // The other node is up (and has loaded the groups) once it answers.
            try await eventually("the other node answering") {
                (try? await onOther(.POST, "/feeds/feed_groups/user/feeds/alice", #"{"user_id":"alice"}"#))?.status == 201
            }
            #expect(try await server.api(.POST, "/feeds/feed_groups", as: nil, json: #"{"id":"room"}"#).status == 201)
            // No wait: a group the other node has not heard of yet is looked up before a refusal.
            let feed = try await onOther(.POST, "/feeds/feed_groups/room/feeds/lobby", #"{"user_id":"alice"}"#)
            #expect(feed.status == 201, "\(feed.text)")
            // A change to the bell's format reaches it by notification: its next notification is grouped by it.
            #expect(
                try await server.api(
                    .PUT, "/feeds/feed_groups/notification", as: nil, json: #"{"aggregation":{"format":"by {{ user_id }}"}}"#
                ).status == 200)
            try await eventually("the other node grouping by the new format") {
                let posted = try await onOther(
                    .POST, "/feeds/activities", #"{"user_id":"alice","type":"post","feeds":["user:alice"]}"#)
                let id = try #require(posted.body["activity"]["id"].string, "\(posted.text)")
                let liked = try await onOther(
                    .POST, "/feeds/activities/\(id)/reactions",
                    #"{"user_id":"bob","type":"like","create_notification_activity":true}"#)
                #expect(liked.status == 201, "\(liked.text)")
                let bell = try await server.api(.POST, "/feeds/feed_groups/notification/feeds/alice", as: "alice", json: "{}")
                return bell.body["aggregated_activities"].array.contains { $0["group"].string == "by bob" }
            }
        }
    }

    /// The visibility levels show what each role is granted, as the server enforces it; an update
    /// that would change a grant is refused, and one that changes nothing is taken.
    @Test func feedVisibilitiesShowTheGrantsTheServerEnforces() async throws {
        try await TestServer.run { server in
            expectAPIError(try await server.api(.GET, "/feeds/feed_visibilities", as: "alice"), status: 403, code: 17)
            let listed = try await server.api(.GET, "/feeds/feed_visibilities", as: nil)
            #expect(listed.status == 200, "\(listed.text)")
            let levels = listed.body["feed_visibilities"]
            #expect(Set(levels.object?.keys.map { $0 } ?? []) == ["public", "visible", "followers", "members", "private"])
            let followers = levels["followers"]["grants"]
            #expect(followers["feed_follower"].array.contains(.string("read-feed")))
            #expect(
                !followers["user"].array.contains(.string("read-feed")) && followers["user"].array.contains(.string("follow")))
            #expect(!levels["private"]["grants"]["feed_member"].array.contains(.string("read-feed")))
            #expect(levels["members"]["grants"]["feed_member"].array.contains(.string("read-feed")))
            let one = try await server.api(.GET, "/feeds/feed_visibilities/visible", as: nil)
            #expect(one.body["feed_visibility"]["grants"]["user"].array.contains(.string("add-comment")), "\(one.text)")
            expectAPIError(try await server.api(.GET, "/feeds/feed_visibilities/secret", as: nil), status: 404, code: 16)
            // The grants as they are: taken. What cannot be granted: refused, naming the role.
            let same = try await server.api(
                .PUT, "/feeds/feed_visibilities/followers", as: nil,
                json: #"{"grants":{"feed_follower":\#(followers["feed_follower"].text)}}"#)
            #expect(same.status == 200, "\(same.text)")
            expectAPIError(
                try await server.api(
                    .PUT, "/feeds/feed_visibilities/followers", as: nil, json: #"{"grants":{"user":["read-feed"]}}"#),
                status: 400, code: 4, field: "grants.user")
            expectAPIError(
                try await server.api(.PUT, "/feeds/feed_visibilities/public", as: nil, json: #"{"grants":{"a role?":[]}}"#),
                status: 400, code: 4, field: "grants.a role?")
        }
    }
}
