import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// Feed members through the real server: a `members` feed is read by its owner and its members
/// only; invites wait for their answer; the owner (or the server) adds, removes and sets members.
@Suite struct FeedMemberTests {
    let club = "/feeds/feed_groups/room/feeds/club"

    func read(_ server: TestServer, as user: String) async throws -> TestServer.Reply {
        try await server.api(.POST, club, as: user, json: "{}")
    }

    func members(_ server: TestServer, as user: String?, _ json: String) async throws -> TestServer.Reply {
        try await server.api(.PATCH, club + "/members", as: user, json: json)
    }

    @Test func membersReadAMembersFeedAndInvitesWaitForTheirAnswer() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("room")
            let made = try await server.api(
                .POST, club, as: "alice",
                json:
                    #"{"data":{"visibility":"members","members":[{"user_id":"bob","role":"moderator"},{"user_id":"carl","invite":true}]}}"#
            )
            #expect(made.status == 201, "\(made.text)")
            #expect(made.body["feed"]["member_count"].int == 1, "\(made.text)")
            #expect(made.body["members"].array.compactMap { $0["user"]["id"].string } == ["bob"])
            #expect(made.body["members"][0]["role"].string == "moderator" && made.body["members"][0]["status"].string == "member")
            let post = try await server.api(
                .POST, "/feeds/activities", as: "alice", json: #"{"type":"post","feeds":["room:club"],"text":"members only"}"#)
            let postID = try #require(post.body["activity"]["id"].string, "\(post.text)")

            // A member reads the feed and its posts; an invitee and a stranger do not.
            let asBob = try await read(server, as: "bob")
            #expect(asBob.status == 201 && asBob.body["activities"].array.count == 1, "\(asBob.text)")
            #expect(try await server.api(.GET, "/feeds/activities/\(postID)", as: "bob").status == 200)
            for user in ["carl", "dora"] {
                expectAPIError(try await read(server, as: user), status: 403, code: 17)
                #expect(try await server.api(.GET, "/feeds/activities/\(postID)", as: user).status == 404)
            }

            // carl accepts: a member now. erin rejects hers.
            let accepted = try await server.api(.POST, club + "/members/accept", as: "carl", json: "{}")
            #expect(accepted.status == 200 && accepted.body["member"]["status"].string == "member", "\(accepted.text)")
            #expect(accepted.body["member"]["invite_accepted_at"].int != nil)
            #expect(try await read(server, as: "carl").status == 201)
            #expect(
                try await members(server, as: "alice", #"{"operation":"upsert","members":[{"user_id":"erin","invite":true}]}"#)
                    .status == 200)
            let rejected = try await server.api(.POST, club + "/members/reject", as: "erin", json: "{}")
            #expect(rejected.body["member"]["status"].string == "rejected", "\(rejected.text)")
            expectAPIError(try await read(server, as: "erin"), status: 403, code: 17)
            expectAPIError(try await server.api(.POST, club + "/members/accept", as: "erin", json: "{}"), status: 409, code: 4)

            // Members are listed to readers; filters and pages.
            let listed = try await server.api(
                .POST, club + "/members/query", as: "bob", json: #"{"limit":1,"sort":[{"field":"created_at","direction":1}]}"#)
            #expect(listed.status == 200, "\(listed.text)")
            #expect(listed.body["members"].array.compactMap { $0["user"]["id"].string } == ["bob"])
            let next = try #require(listed.body["next"].string)
            let second = try await server.api(
                .POST, club + "/members/query", as: "bob",
                json: #"{"limit":1,"sort":[{"field":"created_at","direction":1}],"next":"\#(next)"}"#)
            #expect(second.body["members"].array.compactMap { $0["user"]["id"].string } == ["carl"], "\(second.text)")
            let rejectedOnes = try await server.api(
                .POST, club + "/members/query", as: "alice", json: #"{"filter":{"status":"rejected"}}"#)
            #expect(rejectedOnes.body["members"].array.compactMap { $0["user"]["id"].string } == ["erin"])
            expectAPIError(try await server.api(.POST, club + "/members/query", as: "dora", json: "{}"), status: 403, code: 17)

            // Removed, bob reads no more; `set` makes the members exactly those named.
            let removed = try await members(server, as: "alice", #"{"operation":"remove","members":[{"user_id":"bob"}]}"#)
            #expect(removed.body["removed_ids"].array == [.string("bob")], "\(removed.text)")
            expectAPIError(try await read(server, as: "bob"), status: 403, code: 17)
            let set = try await members(server, as: "alice", #"{"operation":"set","members":[{"user_id":"frank"}]}"#)
            #expect(set.body["added"].array.compactMap { $0["user"]["id"].string } == ["frank"], "\(set.text)")
            #expect(Set(set.body["removed_ids"].array.compactMap(\.string)) == ["carl", "erin"])
            let after = try await read(server, as: "alice")
            #expect(after.body["feed"]["member_count"].int == 1 && after.body["members"][0]["user"]["id"].string == "frank")
        }
    }

    @Test func badMemberChangesAreRefusedAndChangeNothing() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("room")
            #expect(try await server.api(.POST, club, as: "alice", json: #"{"data":{"visibility":"members"}}"#).status == 201)
            expectAPIError(
                try await members(server, as: "mallory", #"{"operation":"upsert","members":[{"user_id":"mallory"}]}"#),
                status: 403, code: 17)
            let many = (0...100).map { #"{"user_id":"u\#($0)"}"# }.joined(separator: ",")
            expectAPIError(
                try await members(server, as: "alice", #"{"operation":"upsert","members":[\#(many)]}"#), status: 400, code: 4)
            expectAPIError(
                try await members(server, as: "alice", #"{"operation":"upsert","members":[{"user_id":"bob","role":"a b"}]}"#),
                status: 400, code: 4, field: "members[0].role")
            expectAPIError(try await members(server, as: "alice", #"{"operation":"upsert","members":[]}"#), status: 400, code: 4)
            expectAPIError(
                try await server.api(
                    .PATCH, "/feeds/feed_groups/room/feeds/nowhere/members", as: nil,
                    json: #"{"operation":"upsert","members":[{"user_id":"bob"}]}"#),
                status: 404, code: 16)
            // A bad first member refuses the whole create: no feed is left behind.
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/feed_groups/room/feeds/other", as: "alice",
                    json: #"{"data":{"members":[{"user_id":"bob","role":"no spaces"}]}}"#),
                status: 400, code: 4, field: "data.members[0].role")
            #expect(try await server.number("SELECT count(*) FROM feed_members") == 0)
            #expect(try await server.number("SELECT count(*) FROM feeds WHERE fid = 'room:other'") == 0)
            // The server changes members of any feed.
            #expect(try await members(server, as: nil, #"{"operation":"upsert","members":[{"user_id":"bob"}]}"#).status == 200)
            #expect(try await read(server, as: "bob").status == 201)
        }
    }

    /// The feed's watchers hear of members added, changed and removed; a member removed from a
    /// `members` feed hears of their own removal (Stream's SDKs clear `own_membership` on it),
    /// then nothing more of the feed.
    @Test func memberChangesReachTheFeedsWatchers() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("room")
            let made = try await server.api(
                .POST, club, as: "alice", json: #"{"data":{"visibility":"members","members":[{"user_id":"bob"}]}}"#)
            #expect(made.status == 201, "\(made.text)")
            let (ownerSocket, ownerInbox, ownerID) = try await server.connected("alice")
            try await server.watch("room:club", as: "alice", connectionID: ownerID)
            let (bobSocket, bobInbox, bobID) = try await server.connected("bob")
            try await server.watch("room:club", as: "bob", connectionID: bobID)

            #expect(
                try await members(server, as: "alice", #"{"operation":"upsert","members":[{"user_id":"carl","invite":true}]}"#)
                    .status == 200)
            let added = try await ownerInbox.event()
            #expect(added["type"].string == "feeds.feed_member.added" && added["fid"].string == "room:club", "\(added)")
            #expect(added["member"]["user"]["id"].string == "carl" && added["member"]["status"].string == "pending")
            #expect(try await server.api(.POST, club + "/members/accept", as: "carl", json: "{}").status == 200)
            let accepted = try await ownerInbox.event()
            #expect(accepted["type"].string == "feeds.feed_member.updated" && accepted["member"]["status"].string == "member")

            #expect(
                try await members(server, as: "alice", #"{"operation":"remove","members":[{"user_id":"bob"}]}"#).status == 200)
            let removed = try await ownerInbox.event()
            #expect(removed["type"].string == "feeds.feed_member.removed" && removed["member_id"].string == "bob", "\(removed)")
            var heard: [String] = []
            while heard.last != "feeds.feed_member.removed" { heard.append(try await bobInbox.event()["type"].string ?? "?") }
            #expect(heard == ["feeds.feed_member.added", "feeds.feed_member.updated", "feeds.feed_member.removed"], "\(heard)")
            // bob hears nothing of the feed after his removal: the next activity he hears of is elsewhere.
            let post = try await server.api(
                .POST, "/feeds/activities", as: "alice", json: #"{"type":"post","feeds":["room:club"],"text":"after bob"}"#)
            #expect(post.status == 201)
            #expect(try await ownerInbox.event()["type"].string == "feeds.activity.added")
            try await server.createFeed("user:dave", owner: "dave")
            try await server.watch("user:dave", as: "bob", connectionID: bobID)
            _ = try await server.addActivity(as: "dave", text: "marker")
            let next = try await bobInbox.activityEvent()
            #expect(next["activity"]["text"].string == "marker", "bob heard \(next)")
            try await ownerSocket.hangUp()
            try await bobSocket.hangUp()
        }
    }
}
