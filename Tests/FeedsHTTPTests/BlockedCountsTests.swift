import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// What a blocker is shown of an activity and its comments agrees with what they may read: the
/// newest reactions leave out the users blocked either way, and the counts and reaction groups are
/// the row's less those users' share. Everyone else, and the server, sees the whole.
@Suite struct BlockedCountsTests {
    @Test func aBlockersCountsAndNewestReactionsLeaveOutTheBlocked() async throws {
        try await TestServer.run { server in
            for user in ["alice", "bob", "carol", "dave"] { try await server.createFeed("user:\(user)", owner: user) }
            let post = try #require(try await server.addActivity(as: "carol", text: "carol's")["id"].string)
            func react(_ user: String, _ type: String, on path: String) async throws {
                let reacted = try await server.api(.POST, "\(path)/reactions", as: user, json: #"{"type":"\#(type)"}"#)
                #expect(reacted.status == 201, "\(reacted.text)")
            }
            func comment(_ user: String, parent: String? = nil) async throws -> String {
                let parentField = parent.map { #","parent_id":"\#($0)""# } ?? ""
                let made = try await server.api(
                    .POST, "/feeds/comments", as: user,
                    json: #"{"object_id":"\#(post)","object_type":"activity","comment":"from \#(user)"\#(parentField)}"#)
                #expect(made.status == 201, "\(made.text)")
                return try #require(made.body["comment"]["id"].string)
            }
            for user in ["alice", "bob", "dave"] { try await react(user, "like", on: "/feeds/activities/\(post)") }
            try await react("bob", "love", on: "/feeds/activities/\(post)")
            _ = try await comment("alice")
            _ = try await comment("bob")
            let daves = try await comment("dave")
            _ = try await comment("bob", parent: daves)
            for user in ["alice", "bob"] { try await react(user, "like", on: "/feeds/comments/\(daves)") }
            #expect(try await server.api(.POST, "/users/block", as: "alice", json: #"{"blocked_user_id":"bob"}"#).status == 201)

            /// What `viewer` (nil: the server) is shown of the post, by id and on carol's feed page, and of dave's comment.
            func shown(to viewer: String?) async throws -> (
                reactions: Int, groups: [String: Int], latest: [String], comments: Int,
                daveReplies: Int, daveReactions: Int, daveLatest: [String]
            ) {
                let read = try await server.api(
                    .GET, "/feeds/activities/\(post)", as: viewer, query: viewer == nil ? "&user_id=carol" : "")
                #expect(read.status == 200, "\(read.text)")
                let activity = read.body["activity"]
                if let viewer {
                    let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/carol", as: viewer, json: "{}")
                    let onPage = page.body["activities"].array.first { $0["id"].string == post }
                    #expect(onPage?["reaction_count"] == activity["reaction_count"], "\(viewer)'s page: \(page.text)")
                    #expect(onPage?["comment_count"] == activity["comment_count"], "\(viewer)'s page")
                    #expect(onPage?["latest_reactions"] == activity["latest_reactions"], "\(viewer)'s page")
                }
                let comments = try await server.api(
                    .GET, "/feeds/comments", as: viewer, query: "&object_id=\(post)&object_type=activity&sort=first")
                let dave = try #require(comments.body["comments"].array.first { $0["id"].string == daves }, "\(comments.text)")
                var groups: [String: Int] = [:]
                for (type, group) in activity["reaction_groups"].object ?? [:] { groups[type] = group["count"].int }
                return (
                    activity["reaction_count"].int ?? -1, groups,
                    activity["latest_reactions"].array.compactMap { $0["user"]["id"].string }.sorted(),
                    activity["comment_count"].int ?? -1, dave["reply_count"].int ?? -1, dave["reaction_count"].int ?? -1,
                    dave["latest_reactions"].array.compactMap { $0["user"]["id"].string }.sorted()
                )
            }

            let alice = try await shown(to: "alice")
            #expect(alice.reactions == 2 && alice.groups == ["like": 2], "\(alice)")
            #expect(alice.latest == ["alice", "dave"] && alice.comments == 2, "\(alice)")
            #expect(alice.daveReplies == 0 && alice.daveReactions == 1 && alice.daveLatest == ["alice"], "\(alice)")
            // A block hides both ways.
            let bob = try await shown(to: "bob")
            #expect(bob.reactions == 3 && bob.groups == ["like": 2, "love": 1], "\(bob)")
            #expect(bob.latest == ["bob", "bob", "dave"] && bob.comments == 3, "\(bob)")
            #expect(bob.daveReplies == 1 && bob.daveReactions == 1 && bob.daveLatest == ["bob"], "\(bob)")
            for viewer in ["carol", nil] {
                let whole = try await shown(to: viewer)
                #expect(whole.reactions == 4 && whole.groups == ["like": 3, "love": 1], "\(viewer ?? "server"): \(whole)")
                #expect(whole.latest == ["alice", "bob", "bob", "dave"] && whole.comments == 4, "\(whole)")
                #expect(whole.daveReplies == 1 && whole.daveReactions == 2 && whole.daveLatest == ["alice", "bob"], "\(whole)")
            }

            // Unblocked, alice sees the whole again.
            #expect(try await server.api(.POST, "/users/unblock", as: "alice", json: #"{"blocked_user_id":"bob"}"#).status == 201)
            let after = try await shown(to: "alice")
            #expect(after.reactions == 4 && after.comments == 4 && after.daveReplies == 1 && after.daveReactions == 2, "\(after)")
        }
    }

    /// A write's reply is also its event, which others get: it carries the whole, so nobody
    /// learns from alice's like whom she blocked.
    @Test func aBlockersWriteTellsOthersNothingOfTheirBlocks() async throws {
        try await TestServer.run { server in
            for user in ["alice", "bob", "carol", "dave"] { try await server.createFeed("user:\(user)", owner: user) }
            let post = try #require(try await server.addActivity(as: "carol", text: "carol's")["id"].string)
            #expect(
                try await server.api(.POST, "/feeds/activities/\(post)/reactions", as: "bob", json: #"{"type":"like"}"#).status
                    == 201)
            #expect(try await server.api(.POST, "/users/block", as: "alice", json: #"{"blocked_user_id":"bob"}"#).status == 201)
            let (socket, inbox, connection) = try await server.connected("dave")
            try await server.watch("user:carol", as: "dave", connectionID: connection)

            let liked = try await server.api(.POST, "/feeds/activities/\(post)/reactions", as: "alice", json: #"{"type":"like"}"#)
            #expect(liked.status == 201, "\(liked.text)")
            let event = try await inbox.event()
            #expect(event["type"].string == "feeds.activity.reaction.added", "\(event)")
            for activity in [event["activity"], liked.body["activity"]] {
                #expect(activity["reaction_count"].int == 2, "\(activity)")
                #expect(activity["reaction_groups"]["like"]["count"].int == 2, "\(activity)")
                #expect(Set(activity["latest_reactions"].array.compactMap { $0["user"]["id"].string }) == ["alice", "bob"])
            }
            // Her reads leave bob out.
            let read = try await server.api(.GET, "/feeds/activities/\(post)", as: "alice")
            #expect(read.body["activity"]["reaction_count"].int == 1, "\(read.text)")
            try await socket.hangUp()
        }
    }
}
