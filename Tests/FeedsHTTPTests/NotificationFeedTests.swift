import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// Notification feeds through the real server, as Stream's sample apps use them: a like, a
/// comment, a reply, a comment reaction and a follow with `create_notification_activity` each
/// tell the owner, grouped by target, kind and day; marking moves the counts; taking the cause
/// back takes the notification; and nobody else reads or marks them.
@Suite struct NotificationFeedTests {
    func bell(_ server: TestServer, _ user: String, _ body: String = "{}") async throws -> TestServer.Reply {
        try await server.api(.POST, "/feeds/feed_groups/notification/feeds/\(user)", as: user, json: body)
    }

    @Test func likesCommentsAndFollowsReachTheOwnersBellGrouped() async throws {
        try await TestServer.run { server in
            let post = try #require(try await server.addActivity(as: "alice", text: "my walk")["id"].string)
            let notify = #""create_notification_activity":true"#
            #expect(try await server.react(post, "like", as: "bob", extra: notify).status == 201)
            #expect(try await server.react(post, "like", as: "carl", extra: notify).status == 201)
            // Liking your own post tells nobody; liking again after an unlike counts once.
            #expect(try await server.react(post, "like", as: "alice", extra: notify).status == 201)
            #expect(try await server.react(post, "like", as: "bob", extra: notify).status == 201)
            let comment = try await server.api(
                .POST, "/feeds/comments", as: "dora",
                json: #"{"object_id":"\#(post)","object_type":"activity","comment":"nice","create_notification_activity":true}"#)
            #expect(comment.status == 201, "\(comment.text)")
            for user in ["alice", "erin"] {
                #expect(try await server.api(.POST, "/feeds/feed_groups/user/feeds/\(user)", as: user, json: "{}").status == 201)
            }
            let follow = try await server.follow("user:erin", "user:alice", as: "erin", extra: notify)
            #expect(follow.status == 201, "\(follow.text)")

            let read = try await bell(server, "alice")
            #expect(read.status == 201, "\(read.text)")
            let groups = read.body["aggregated_activities"].array
            try #require(groups.count == 3, "\(read.text)")
            let day = ISO8601DateFormatter.string(
                from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
            let likes = try #require(groups.first { $0["group"].string == "\(post)_reaction_\(day)" }, "\(read.text)")
            #expect(likes["activity_count"].int == 2 && likes["user_count"].int == 2)
            #expect(Set(likes["activities"].array.compactMap { $0["user"]["id"].string }) == ["bob", "carl"])
            let first = likes["activities"][0]
            #expect(first["type"].string == "reaction" && first["notification_context"]["target"]["id"].string == post)
            #expect(first["notification_context"]["target"]["text"].string == "my walk")
            #expect(first["notification_context"]["trigger"]["type"].string == "reaction")
            #expect(
                groups.contains {
                    $0["group"].string == "\(post)_comment_\(day)" && $0["activities"][0]["user"]["id"].string == "dora"
                })
            #expect(
                groups.contains { $0["group"].string == "alice_follow_\(day)" && $0["activities"][0]["type"].string == "follow" })
            // Newest first: the follow came last.
            #expect(groups[0]["group"].string == "alice_follow_\(day)")
            let status = read.body["notification_status"]
            #expect(status["unread"].int == 3 && status["unseen"].int == 3, "\(read.text)")
            #expect(groups.allSatisfy { $0["is_read"].bool == false && $0["is_seen"].bool == false })

            // Taking the cause back takes its notification.
            #expect(try await server.api(.DELETE, "/feeds/activities/\(post)/reactions/like", as: "carl").status == 200)
            #expect(try await server.api(.DELETE, "/feeds/follows/user:erin/user:alice", as: "erin").status == 200)
            let after = try await bell(server, "alice")
            let left = after.body["aggregated_activities"].array
            #expect(left.count == 2, "\(after.text)")
            let fewer = try #require(left.first { $0["group"].string == "\(post)_reaction_\(day)" })
            #expect(fewer["activity_count"].int == 1 && fewer["user_count"].int == 1)
            #expect(after.body["notification_status"]["unread"].int == 2)
            // Nobody else was told anything.
            for user in ["bob", "carl", "dora", "erin"] {
                #expect(try await bell(server, user).body["aggregated_activities"].array.isEmpty)
            }
        }
    }

    @Test func repliesAndCommentReactionsTellTheCommentsAuthor() async throws {
        try await TestServer.run { server in
            let post = try #require(try await server.addActivity(as: "alice")["id"].string)
            let comment = try await server.api(
                .POST, "/feeds/comments", as: "bob", json: #"{"object_id":"\#(post)","object_type":"activity","comment":"first"}"#
            )
            let commentID = try #require(comment.body["comment"]["id"].string, "\(comment.text)")
            let reply = try await server.api(
                .POST, "/feeds/comments", as: "carl",
                json:
                    #"{"object_id":"\#(post)","object_type":"activity","parent_id":"\#(commentID)","comment":"agreed","create_notification_activity":true}"#
            )
            #expect(reply.status == 201, "\(reply.text)")
            let liked = try await server.api(
                .POST, "/feeds/comments/\(commentID)/reactions", as: "dora",
                json:
                    #"{"type":"like","create_notification_activity":true,"copy_custom_to_notification":true,"custom":{"e":"x"}}"#)
            #expect(liked.status == 201, "\(liked.text)")
            let bob = try await bell(server, "bob").body["aggregated_activities"].array
            #expect(Set(bob.compactMap { $0["activities"][0]["type"].string }) == ["comment_reply", "comment_reaction"])
            let reaction = try #require(bob.first { $0["activities"][0]["type"].string == "comment_reaction" })
            #expect(reaction["group"].string?.hasPrefix("\(commentID)_comment_reaction_") == true)
            #expect(reaction["activities"][0]["notification_context"]["target"]["comment"]["id"].string == commentID)
            #expect(reaction["activities"][0]["custom"]["e"].string == "x")
            // The activity's owner was not told of the reply (it is not their comment).
            #expect(try await bell(server, "alice").body["aggregated_activities"].array.isEmpty)
            // Deleting the reply takes its notification.
            let replyID = try #require(reply.body["comment"]["id"].string)
            #expect(try await server.api(.DELETE, "/feeds/comments/\(replyID)", as: "carl").status == 200)
            #expect(try await bell(server, "bob").body["aggregated_activities"].array.count == 1)
        }
    }

    @Test func mentionsTellThoseWhoMayReadAndADeletedActivityTakesItsNotifications() async throws {
        try await TestServer.run { server in
            let notify = #""create_notification_activity":true"#
            let post = try #require(
                try await server.addActivity(
                    as: "alice", text: "hi @bob", extra: #"\#(notify),"mentioned_user_ids":["bob","alice","bob"]"#)["id"].string)
            let bob = try await bell(server, "bob").body["aggregated_activities"].array
            try #require(bob.count == 1)
            #expect(bob[0]["activities"][0]["type"].string == "mention" && bob[0]["activity_count"].int == 1)
            #expect(bob[0]["activities"][0]["notification_context"]["target"]["id"].string == post)
            // A private activity's mention tells nobody who may not read it.
            _ = try await server.addActivity(
                as: "alice", text: "secret @carl", extra: #"\#(notify),"visibility":"private","mentioned_user_ids":["carl"]"#)
            #expect(try await bell(server, "carl").body["aggregated_activities"].array.isEmpty)
            // A comment's mention tells its user.
            let comment = try await server.api(
                .POST, "/feeds/comments", as: "dora",
                json: #"{"object_id":"\#(post)","object_type":"activity","comment":"@erin look","mentioned_user_ids":["erin"],\#(notify)}"#)
            #expect(comment.status == 201, "\(comment.text)")
            let erin = try await bell(server, "erin").body["aggregated_activities"].array
            #expect(erin.map { $0["activities"][0]["type"].string } == ["comment_mention"])
            #expect(try await server.react(post, "like", as: "carl", extra: notify).status == 201)
            #expect(try await bell(server, "alice").body["aggregated_activities"].array.count == 2)
            // Deleting the activity takes every notification about it.
            #expect(try await server.api(.DELETE, "/feeds/activities/\(post)", as: "alice").status == 200)
            for user in ["alice", "bob", "erin"] {
                let left = try await bell(server, user)
                #expect(left.body["aggregated_activities"].array.isEmpty, "\(user): \(left.text)")
                #expect(left.body["notification_status"]["unread"].int == 0)
            }
        }
    }

    @Test func markingMovesTheCountsAndANewNotificationIsUnreadAgain() async throws {
        try await TestServer.run { server in
            let notify = #""create_notification_activity":true"#
            let one = try #require(try await server.addActivity(as: "alice", text: "one")["id"].string)
            let two = try #require(try await server.addActivity(as: "alice", text: "two")["id"].string)
            #expect(try await server.react(one, "like", as: "bob", extra: notify).status == 201)
            #expect(try await server.react(two, "like", as: "bob", extra: notify).status == 201)
            let groups = try await bell(server, "alice").body["aggregated_activities"].array.compactMap { $0["group"].string }
            try #require(groups.count == 2)
            let mark = "/feeds/feed_groups/notification/feeds/alice/activities/mark/batch"
            let marked = try await server.api(.POST, mark, as: "alice", json: #"{"mark_read":["\#(groups[0])"]}"#)
            #expect(marked.status == 200, "\(marked.text)")
            var read = try await bell(server, "alice")
            #expect(read.body["notification_status"]["unread"].int == 1 && read.body["notification_status"]["unseen"].int == 1)
            #expect(read.body["notification_status"]["read_activities"].array.compactMap(\.string) == [groups[0]])
            #expect(read.body["aggregated_activities"][0]["is_read"].bool == true)
            #expect(try await server.api(.POST, mark, as: "alice", json: #"{"mark_all_seen":true}"#).status == 200)
            #expect(try await server.api(.POST, mark, as: "alice", json: #"{"mark_all_read":true}"#).status == 200)
            read = try await bell(server, "alice")
            #expect(read.body["notification_status"]["unread"].int == 0 && read.body["notification_status"]["unseen"].int == 0)
            #expect(read.body["notification_status"]["last_read_at"].int != nil, "\(read.text)")
            // A new like joins its group, which is unread again.
            #expect(try await server.react(one, "like", as: "carl", extra: notify).status == 201)
            read = try await bell(server, "alice")
            #expect(read.body["notification_status"]["unread"].int == 1, "\(read.text)")
            #expect(read.body["aggregated_activities"][0]["is_read"].bool == false)
            #expect(read.body["aggregated_activities"][0]["activity_count"].int == 2)
        }
    }

    @Test func groupsArePagedExactlyWithTheirCursor() async throws {
        try await TestServer.run { server in
            var posts: [String] = []
            for index in 0..<7 {
                let post = try #require(try await server.addActivity(as: "alice", text: "post \(index)")["id"].string)
                #expect(
                    try await server.react(post, "like", as: "bob", extra: #""create_notification_activity":true"#).status == 201)
                posts.append(post)
            }
            var seen: [String] = []
            var next: String?
            repeat {
                let body = next.map { #"{"limit":3,"next":"\#($0)"}"# } ?? #"{"limit":3}"#
                let page = try await bell(server, "alice", body)
                #expect(page.status == 201, "\(page.text)")
                seen += page.body["aggregated_activities"].array.compactMap {
                    $0["group"].string?.components(separatedBy: "_")[0]
                }
                next = page.body["next"].string
            } while next != nil && seen.count < 20
            #expect(seen == posts.reversed())
        }
    }

    @Test func strangersCannotReadOrMarkABellAndBadMarksWriteNothing() async throws {
        try await TestServer.run { server in
            let post = try #require(try await server.addActivity(as: "alice")["id"].string)
            #expect(try await server.react(post, "like", as: "bob", extra: #""create_notification_activity":true"#).status == 201)
            _ = try await bell(server, "alice")
            expectAPIError(
                try await server.api(.POST, "/feeds/feed_groups/notification/feeds/alice", as: "mallory", json: "{}"),
                status: 403, code: 17)
            let mark = "/feeds/feed_groups/notification/feeds/alice/activities/mark/batch"
            expectAPIError(
                try await server.api(.POST, mark, as: "mallory", json: #"{"mark_all_read":true}"#), status: 403, code: 17)
            let many = (0..<10_000).map { "\"g\($0)\"" }.joined(separator: ",")
            expectAPIError(
                try await server.api(.POST, mark, as: "alice", json: #"{"mark_read":[\#(many)]}"#), status: 400, code: 4)
            expectAPIError(try await server.api(.POST, mark, as: "alice", json: "{}"), status: 400, code: 4)
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/feed_groups/user/feeds/alice/activities/mark/batch", as: "alice",
                    json: #"{"mark_all_read":true}"#),
                status: 400, code: 4)
            expectAPIError(try await server.api(.POST, mark, as: nil, json: #"{"mark_all_read":true}"#), status: 400, code: 4)
            // None of that marked anything.
            #expect(try await bell(server, "alice").body["notification_status"]["unread"].int == 1)
            // A cursor it did not give is refused.
            expectAPIError(try await bell(server, "alice", #"{"next":"garbage!"}"#), status: 400, code: 4)
        }
    }

    /// A double tap: the same notifying like sent many times at once is one like and one
    /// notification, and every request succeeds (make bench's two wrk threads found this).
    @Test func theSameNotifyingReactionAtOnceIsOneNotification() async throws {
        try await TestServer.run { server in
            let post = try #require(try await server.addActivity(as: "alice")["id"].string)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await server.react(post, "like", as: "bob", extra: #""create_notification_activity":true"#).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 201 }, "\(statuses)")
            let groups = try await bell(server, "alice").body["aggregated_activities"].array
            #expect(groups.count == 1 && groups.first?["activity_count"].int == 1, "\(groups)")
            #expect(try await server.number("SELECT count(*) FROM notifications") == 1)
        }
    }

    @Test func theOwnersSocketHearsOfEachNotificationAndEachMark() async throws {
        try await TestServer.run { server in
            let (socket, inbox, id) = try await server.connected("alice")
            try await server.watch("notification:alice", as: "alice", connectionID: id)
            let post = try #require(try await server.addActivity(as: "alice")["id"].string)
            #expect(try await server.react(post, "like", as: "bob", extra: #""create_notification_activity":true"#).status == 201)
            let updated = try await inbox.event()
            #expect(updated["type"].string == "feeds.notification_feed.updated", "\(updated)")
            #expect(updated["fid"].string == "notification:alice")
            #expect(updated["notification_status"]["unread"].int == 1)
            #expect(updated["aggregated_activities"][0]["activities"][0]["user"]["id"].string == "bob")
            let mark = "/feeds/feed_groups/notification/feeds/alice/activities/mark/batch"
            #expect(try await server.api(.POST, mark, as: "alice", json: #"{"mark_all_read":true}"#).status == 200)
            let marked = try await inbox.event()
            #expect(marked["type"].string == "feeds.activity.marked" && marked["mark_all_read"].bool == true, "\(marked)")
            let after = try await inbox.event()
            #expect(after["type"].string == "feeds.notification_feed.updated" && after["notification_status"]["unread"].int == 0)
            try await socket.hangUp()
        }
    }
}
