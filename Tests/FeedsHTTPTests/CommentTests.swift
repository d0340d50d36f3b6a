import FeedsCore
import FeedsPostgres
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

/// Comments through the real server: threads and their pages, counts, who may do what, files
/// linked and released, and what a hostile client sends.
@Suite struct CommentTests {
    @Test func commentsAndRepliesCountAndThread() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice", text: "discuss")["id"].string)
            let first = try await server.comment(on: id, "first!", as: "bob")
            #expect(first.status == 201, "\(first.text)")
            let comment = first.body["comment"]
            #expect(comment["object_id"].string == id && comment["object_type"].string == "activity")
            #expect(
                comment["text"].string == "first!" && comment["user"]["id"].string == "bob"
                    && comment["status"].string == "active")
            #expect(comment["reply_count"].int == 0 && comment["own_reactions"].array.isEmpty)
            let parent = try #require(comment["id"].string)
            for index in 0..<4 {
                #expect(try await server.reply(to: parent, "reply \(index)", as: "carl").status == 201)
            }
            let nested = try await server.reply(to: parent, "deeper", as: "alice")
            let nestedID = try #require(nested.body["comment"]["id"].string)
            #expect(try await server.reply(to: nestedID, "deepest", as: "bob").status == 201)
            #expect(try await server.comment(on: id, "second", as: "carl").status == 201)

            let read = try await server.api(.GET, "/feeds/activities/\(id)", as: "bob")
            #expect(read.body["activity"]["comment_count"].int == 8, "\(read.text)")

            // Oldest first by default; each comment with its first 3 replies, one level deep.
            let thread = try await server.api(
                .GET, "/feeds/comments", as: "bob", query: "&object_id=\(id)&object_type=activity&replies_limit=3")
            #expect(thread.status == 200, "\(thread.text)")
            #expect(thread.body["sort"].string == "first")
            let top = thread.body["comments"].array
            #expect(top.map { $0["text"].string } == ["first!", "second"])
            #expect(
                top[0]["reply_count"].int == 5
                    && top[0]["replies"].array.map { $0["text"].string } == ["reply 0", "reply 1", "reply 2"])
            #expect(top[0]["meta"]["has_more"] == .bool(true) && top[0]["meta"]["remaining"].int == 2)
            #expect(top[0]["replies"][0]["meta"]["depth_truncated"] == .bool(false))

            // Two levels, newest first: the reply with a reply of its own shows it.
            let deep = try await server.api(
                .GET, "/feeds/comments", as: "bob",
                query: "&object_id=\(id)&object_type=activity&depth=2&sort=last&replies_limit=10")
            let firstThread = try #require(deep.body["comments"].array.last)
            let deeper = try #require(firstThread["replies"].array.first)
            #expect(deeper["text"].string == "deeper" && deeper["replies"].array.map { $0["text"].string } == ["deepest"])
            let replies = try await server.api(.GET, "/feeds/comments/\(parent)/replies", as: "bob", query: "&limit=2")
            #expect(replies.body["comments"].array.map { $0["text"].string } == ["reply 0", "reply 1"], "\(replies.text)")
            #expect(replies.body["next"].string != nil)

            let single = try await server.api(.GET, "/feeds/comments/\(nestedID)", as: "carl")
            #expect(single.status == 200 && single.body["comment"]["parent_id"].string == parent, "\(single.text)")
        }
    }

    @Test func commentPagesNeitherRepeatNorSkip() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            var made: [String] = []
            for index in 0..<12 {
                made.append(
                    try #require(try await server.comment(on: id, "c\(index)", as: "u\(index % 3)").body["comment"]["id"].string))
            }
            for (sort, expected) in [("first", made), ("last", Array(made.reversed()))] {
                var seen: [String] = []
                var next: String?
                repeat {
                    let cursor = next.map { "&next=\($0)" } ?? ""
                    let page = try await server.api(
                        .GET, "/feeds/comments", as: "bob",
                        query: "&object_id=\(id)&object_type=activity&limit=5&sort=\(sort)\(cursor)")
                    #expect(page.status == 200, "\(page.text)")
                    seen += page.body["comments"].array.compactMap { $0["id"].string }
                    next = page.body["next"].string
                    // A comment arriving meanwhile does not shift the pages.
                    if sort == "last" { _ = try await server.comment(on: id, "meanwhile", as: "x") }
                } while next != nil
                #expect(seen == expected, "\(sort)")
            }
        }
    }

    @Test func onlyTheAuthorEditsAndTheAuthorOrTheActivitysOwnerDeletes() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let made = try #require(try await server.comment(on: id, "mine", as: "bob").body["comment"]["id"].string)
            let edited = try await server.api(
                .PATCH, "/feeds/comments/\(made)", as: "bob", json: #"{"comment":"edited","custom":{"k":1}}"#)
            #expect(edited.status == 200 && edited.body["comment"]["text"].string == "edited", "\(edited.text)")
            #expect(edited.body["comment"]["edited_at"].int != nil && edited.body["comment"]["custom"]["k"].int == 1)
            // PUT replaces: the custom data not sent is cleared; with neither text nor files it is a 400.
            let replaced = try await server.api(.PUT, "/feeds/comments/\(made)", as: "bob", json: #"{"comment":"replaced"}"#)
            #expect(replaced.status == 200 && replaced.body["comment"]["text"].string == "replaced", "\(replaced.text)")
            #expect(replaced.body["comment"]["custom"].object?.isEmpty == true)
            expectAPIError(
                try await server.api(.PUT, "/feeds/comments/\(made)", as: "bob", json: "{}"), status: 400, code: 4,
                field: "comment")
            expectAPIError(
                try await server.api(.PUT, "/feeds/comments/\(made)", as: "carl", json: #"{"comment":"x"}"#), status: 403,
                code: 17)
            expectAPIError(
                try await server.api(.PATCH, "/feeds/comments/\(made)", as: "alice", json: #"{"comment":"x"}"#), status: 403,
                code: 17)
            expectAPIError(
                try await server.api(.PATCH, "/feeds/comments/\(made)", as: "mallory", json: #"{"comment":"x"}"#), status: 403,
                code: 17)
            expectAPIError(try await server.api(.DELETE, "/feeds/comments/\(made)", as: "mallory"), status: 403, code: 17)

            // The activity's owner deletes it; it leaves the thread and the count.
            let deleted = try await server.api(.DELETE, "/feeds/comments/\(made)", as: "alice")
            #expect(deleted.status == 200 && deleted.body["activity"]["comment_count"].int == 0, "\(deleted.text)")
            expectAPIError(try await server.api(.GET, "/feeds/comments/\(made)", as: "bob"), status: 404, code: 16)
            expectAPIError(try await server.api(.DELETE, "/feeds/comments/\(made)", as: "alice"), status: 404, code: 16)

            // A hard delete takes the replies with it, and their counts.
            let top = try #require(try await server.comment(on: id, "top", as: "bob").body["comment"]["id"].string)
            let reply = try #require(try await server.reply(to: top, "r", as: "carl").body["comment"]["id"].string)
            #expect(try await server.reply(to: reply, "rr", as: "bob").status == 201)
            let hard = try await server.api(.DELETE, "/feeds/comments/\(top)", as: "bob", query: "&hard_delete=true")
            #expect(hard.status == 200 && hard.body["activity"]["comment_count"].int == 0, "\(hard.text)")
            #expect(try await server.number("SELECT count(*)::int FROM comments WHERE activity_id = \(id)") == 1)
        }
    }

    /// A comment links uploads as an activity does: the caller's own only; deleting the comment
    /// releases them for gc, unless something else still holds them.
    @Test func commentFilesAreOwnerCheckedAndReleasedOnDelete() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let mine = try await server.uploadFile(as: "bob")
            let theirs = try await server.uploadFile(as: "carl")
            let attachment = { (url: String) in
                #"{"object_id":"\#(id)","object_type":"activity","attachments":[{"type":"file","asset_url":"\#(url)"}]}"#
            }
            expectAPIError(
                try await server.api(.POST, "/feeds/comments", as: "bob", json: attachment(theirs)), status: 403, code: 17)
            let made = try await server.api(.POST, "/feeds/comments", as: "bob", json: attachment(mine))
            #expect(made.status == 201, "\(made.text)")
            let commentID = try #require(made.body["comment"]["id"].string)
            #expect(made.body["comment"]["attachments"][0]["asset_url"].string?.contains("/cdn/") == true)
            #expect(made.body["comment"]["attachments"][0]["file_size"].int != nil)
            let key = try #require(mine.split(separator: "/cdn/").last.map { String($0.split(separator: "?")[0]) })
            #expect(
                try await server.number("SELECT count(*)::int FROM cdn_objects WHERE key = \(key) AND state = 'attached'") == 1)
            #expect(try await server.api(.DELETE, "/feeds/comments/\(commentID)", as: "bob").status == 200)
            #expect(
                try await server.number("SELECT count(*)::int FROM cdn_objects WHERE key = \(key) AND state = 'released'") == 1)
        }
    }

    /// The comment's one statement checks the activity and the linked objects itself: an object
    /// claimed for deletion after it was linked, or a comment the activity refuses, writes nothing,
    /// not even the new user.
    @Test func aRefusedCommentWritesNothing() async throws {
        try await TestServer.run { server in
            let store = PostgresActivityStore(client: server.database)
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let upload = try await server.uploadFile(as: "newcomer")
            let key = try #require(upload.split(separator: "/cdn/").last.map { String($0.split(separator: "?")[0]) })
            let linked = try await server.api(
                .POST, "/feeds/comments", as: "alice",
                json: #"{"object_id":"\#(id)","comment":"ok","attachments":[{"type":"file","asset_url":"\#(upload)"}]}"#)
            #expect(linked.status == 403, "another user's file: \(linked.text)")
            _ = try await server.database.query(
                "UPDATE cdn_objects SET state = 'deleting' WHERE key = \(key)", logger: TestDatabase.logger)
            let draft = { (activity: String) in
                try CommentDraft(
                    id: nil, activityID: activity, parentID: nil, userID: "newcomer", text: "late", custom: nil,
                    mentionedUserIDs: nil,
                    attachments: [StoredAttachment(payload: ["type": .string("file")], objectKey: ObjectKey(rawValue: key))])
            }
            await #expect(
                throws: FeedsError.input("attachment object \(key) does not exist or was deleted", field: "attachments")
            ) {
                _ = try await store.addComment(try draft(id), by: .user("newcomer"), logger: TestDatabase.logger)
            }
            let closed = try #require(
                try await server.addActivity(as: "alice", extra: #""restrict_replies":"nobody""#)["id"].string)
            _ = try await server.database.query(
                "UPDATE cdn_objects SET state = 'stored' WHERE key = \(key)", logger: TestDatabase.logger)
            await #expect(throws: FeedsError.self) {
                _ = try await store.addComment(try draft(closed), by: .user("newcomer"), logger: TestDatabase.logger)
            }
            #expect(try await server.number("SELECT count(*)::int FROM comments") == 0)
            #expect(try await server.number("SELECT count(*)::int FROM cdn_objects WHERE key = \(key) AND state = 'stored'") == 1)

            // Once the owner follows the commenter, `people_i_follow` lets them in; the same file twice is one object.
            let followers = try #require(
                try await server.addActivity(as: "alice", extra: #""restrict_replies":"people_i_follow""#)["id"].string)
            try await server.createFeed("user:newcomer", owner: "newcomer")
            try await server.createFeed("timeline:alice", owner: "alice")
            let follow = try await server.follow("timeline:alice", "user:newcomer", as: "alice")
            #expect(follow.status == 201, "\(follow.text)")
            var twice = try draft(followers)
            twice.attachments += twice.attachments
            let made = try await store.addComment(twice, by: .user("newcomer"), logger: TestDatabase.logger)
            #expect(made.attachments.count == 2 && made.user.id == "newcomer")
            #expect(
                try await server.number("SELECT count(*)::int FROM cdn_objects WHERE key = \(key) AND state = 'attached'") == 1)
        }
    }

    @Test func commentReactionsCountShowInThreadsAndStayExactUnderContention() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let commentID = try #require(
                try await server.comment(on: id, "react to this", as: "bob").body["comment"]["id"].string)
            let path = "/feeds/comments/\(commentID)/reactions"
            let like = try await server.api(.POST, path, as: "carl", json: #"{"type":"like","custom":{"n":1}}"#)
            #expect(like.status == 201, "\(like.text)")
            #expect(like.body["reaction"]["comment_id"].string == commentID && like.body["reaction"]["activity_id"].string == id)
            #expect(like.body["comment"]["reaction_count"].int == 1 && like.body["comment"]["own_reactions"].array.count == 1)
            #expect(try await server.api(.POST, path, as: "alice", json: #"{"type":"heart"}"#).status == 201)

            // Threads carry them, with the reader's own.
            let thread = try await server.api(.GET, "/feeds/comments", as: "carl", query: "&object_id=\(id)&object_type=activity")
            let read = try #require(thread.body["comments"].array.first)
            #expect(read["reaction_count"].int == 2 && read["reaction_groups"]["heart"]["count"].int == 1)
            #expect(read["latest_reactions"].array.map { $0["type"].string } == ["heart", "like"])
            #expect(read["own_reactions"].array.map { $0["user"]["id"].string } == ["carl"])
            let queried = try await server.api(.POST, "\(path)/query", as: "bob", json: #"{"filter":{"reaction_type":"like"}}"#)
            #expect(queried.body["reactions"].array.map { $0["user"]["id"].string } == ["carl"], "\(queried.text)")

            let unique = try await server.api(.POST, path, as: "carl", json: #"{"type":"wow","enforce_unique":true}"#)
            #expect(unique.body["comment"]["reaction_groups"].object?.keys.sorted() == ["heart", "wow"], "\(unique.text)")
            let removed = try await server.api(.DELETE, "\(path)/wow", as: "carl")
            #expect(removed.status == 200 && removed.body["comment"]["reaction_count"].int == 1, "\(removed.text)")
            expectAPIError(try await server.api(.DELETE, "\(path)/wow", as: "carl"), status: 404, code: 16)

            // 32 users react at once, then 16 of them remove theirs at once.
            let users = (0..<32).map { "fan\($0)" }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in users {
                    group.addTask {
                        let reply = try await server.api(.POST, path, as: user, json: #"{"type":"like"}"#)
                        #expect(reply.status == 201, "\(reply.text)")
                    }
                }
                try await group.waitForAll()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in users.prefix(16) {
                    group.addTask {
                        let reply = try await server.api(.DELETE, "\(path)/like", as: user)
                        #expect(reply.status == 200, "\(reply.text)")
                    }
                }
                try await group.waitForAll()
            }
            let after = try await server.api(.GET, "/feeds/comments/\(commentID)", as: "bob")
            #expect(
                after.body["comment"]["reaction_count"].int == 17
                    && after.body["comment"]["reaction_groups"]["like"]["count"].int == 16)

            // A comment on an activity the user may not read is not there for them.
            let hidden = try #require(try await server.addActivity(as: "alice", extra: #""visibility":"private""#)["id"].string)
            let secret = try #require(try await server.comment(on: hidden, "secret", as: "alice").body["comment"]["id"].string)
            expectAPIError(
                try await server.api(.POST, "/feeds/comments/\(secret)/reactions", as: "mallory", json: #"{"type":"like"}"#),
                status: 404,
                code: 16)
            expectAPIError(try await server.api(.GET, "/feeds/comments/\(secret)", as: "mallory"), status: 404, code: 16)
            expectAPIError(
                try await server.api(.POST, "/feeds/comments/\(secret)/reactions/query", as: "mallory", json: "{}"), status: 404,
                code: 16)
        }
    }

    @Test func queryCommentsFiltersAndShowsOnlyReadableOnes() async throws {
        try await TestServer.run { server in
            let open = try #require(try await server.addActivity(as: "alice")["id"].string)
            let hidden = try #require(try await server.addActivity(as: "alice", extra: #""visibility":"private""#)["id"].string)
            var bobs: [String] = []
            for index in 0..<5 {
                bobs.append(try #require(try await server.comment(on: open, "b\(index)", as: "bob").body["comment"]["id"].string))
            }
            #expect(try await server.comment(on: open, "c", as: "carl").status == 201)
            #expect(try await server.comment(on: hidden, "mine", as: "alice").status == 201)
            var seen: [String] = []
            var next: String?
            repeat {
                let cursor = next.map { #","next":"\#($0)""# } ?? ""
                let page = try await server.api(
                    .POST, "/feeds/comments/query", as: "carl",
                    json: #"{"filter":{"user_id":"bob"},"sort":"last","limit":2\#(cursor)}"#)
                #expect(page.status == 201, "\(page.text)")
                seen += page.body["comments"].array.compactMap { $0["id"].string }
                next = page.body["next"].string
            } while next != nil
            #expect(seen == bobs.reversed())
            // The comments of a private activity are its readers' only.
            let all = try await server.api(
                .POST, "/feeds/comments/query", as: "mallory", json: #"{"filter":{"user_id":"alice"}}"#)
            #expect(all.body["comments"].array.isEmpty, "\(all.text)")
            let own = try await server.api(.POST, "/feeds/comments/query", as: "alice", json: #"{"filter":{"user_id":"alice"}}"#)
            #expect(own.body["comments"].array.count == 1)
            let onOpen = try await server.api(
                .POST, "/feeds/comments/query", as: "bob", json: #"{"filter":{"object_id":"\#(open)","object_type":"activity"}}"#)
            #expect(onOpen.body["comments"].array.count == 6)
            expectAPIError(
                try await server.api(.POST, "/feeds/comments/query", as: "bob", json: #"{"filter":{}}"#), status: 400, code: 4,
                field: "filter")
            expectAPIError(
                try await server.api(.POST, "/feeds/comments/query", as: "bob", json: #"{"filter":{"comment_text":{"$q":"b"}}}"#),
                status: 400,
                code: 4)
        }
    }

    @Test func hostileCommentsAreRefusedAndWriteNothing() async throws {
        try await TestServer.run { server in
            let hidden = try #require(try await server.addActivity(as: "alice", extra: #""visibility":"private""#)["id"].string)
            expectAPIError(try await server.comment(on: hidden, "peek", as: "mallory"), status: 404, code: 16)
            expectAPIError(
                try await server.api(.GET, "/feeds/comments", as: "mallory", query: "&object_id=\(hidden)&object_type=activity"),
                status: 404, code: 16)
            let closed = try #require(
                try await server.addActivity(as: "alice", extra: #""restrict_replies":"nobody""#)["id"].string)
            expectAPIError(try await server.comment(on: closed, "hi", as: "bob"), status: 403, code: 17)
            #expect(try await server.comment(on: closed, "my own", as: "alice").status == 201)
            let followersOnly = try #require(
                try await server.addActivity(as: "alice", extra: #""restrict_replies":"people_i_follow""#)["id"].string)
            expectAPIError(try await server.comment(on: followersOnly, "hi", as: "bob"), status: 403, code: 17)

            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let post = { (json: String) in try await server.api(.POST, "/feeds/comments", as: "bob", json: json) }
            expectAPIError(try await post(#"{"comment":"no object"}"#), status: 400, code: 4, field: "object_id")
            expectAPIError(
                try await post(#"{"object_id":"\#(id)","object_type":"activity"}"#), status: 400, code: 4, field: "comment")
            expectAPIError(try await post(#"{"object_id":"\#(id)","object_type":"user","comment":"x"}"#), status: 400, code: 4)
            expectAPIError(try await post(#"{"object_id":"nope","object_type":"activity","comment":"x"}"#), status: 404, code: 16)
            expectAPIError(try await post(#"{"parent_id":"nope","comment":"x"}"#), status: 404, code: 16)
            let long = String(repeating: "é", count: 5001)
            expectAPIError(
                try await post(#"{"object_id":"\#(id)","object_type":"activity","comment":"\#(long)"}"#), status: 400, code: 4)
            let many = (0..<26).map { #""u\#($0)""# }.joined(separator: ",")
            expectAPIError(
                try await post(#"{"object_id":"\#(id)","object_type":"activity","comment":"x","mentioned_user_ids":[\#(many)]}"#),
                status: 400, code: 4)
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/comments", as: "mallory", json: #"{"object_id":"\#(id)","comment":"x","user_id":"bob"}"#),
                status: 403, code: 17)
            // A reply names a comment of the same activity, and nests at most 5 deep.
            let other = try #require(try await server.addActivity(as: "alice")["id"].string)
            var parent = try #require(try await server.comment(on: id, "0", as: "bob").body["comment"]["id"].string)
            expectAPIError(
                try await post(#"{"object_id":"\#(other)","parent_id":"\#(parent)","comment":"x"}"#), status: 400, code: 4,
                field: "parent_id")
            for level in 1...5 {
                parent = try #require(try await server.reply(to: parent, "\(level)", as: "bob").body["comment"]["id"].string)
            }
            expectAPIError(try await server.reply(to: parent, "too deep", as: "bob"), status: 400, code: 4, field: "parent_id")
            // A taken id is a conflict.
            let taken = #"{"id":"\#(parent)","object_id":"\#(id)","object_type":"activity","comment":"again"}"#
            expectAPIError(try await post(taken), status: 409, code: 4, field: "id")
            for query in ["&depth=6", "&replies_limit=21", "&limit=101", "&sort=best", "&next=garbage"] {
                expectAPIError(
                    try await server.api(
                        .GET, "/feeds/comments", as: "bob", query: "&object_id=\(id)&object_type=activity\(query)"),
                    status: 400, code: 4)
            }
            #expect(try await server.number("SELECT count(*)::int FROM comments WHERE user_id = 'mallory'") == 0)
        }
    }

    /// Many people commenting, replying and reacting on one activity at once: every request
    /// succeeds (comments once deadlocked on the activity's row and answered 500).
    @Test func commentsRepliesAndReactionsOnOneActivityAtOnceAllSucceed() async throws {
        try await TestServer.run { server in
            let post = try #require(try await server.addActivity(as: "alice")["id"].string)
            let parent = try #require(try await server.comment(on: post, "first", as: "alice").body["comment"]["id"].string)
            let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
                for writer in 0..<24 {
                    group.addTask {
                        let user = "writer\(writer)"
                        var statuses: [Int] = []
                        for round in 0..<4 {
                            let comment = try await server.comment(on: post, "c\(round)", as: user)
                            statuses.append(comment.status)
                            statuses.append(try await server.reply(to: parent, "r\(round)", as: user).status)
                            statuses.append(
                                try await server.api(
                                    .POST, "/feeds/activities/\(post)/reactions", as: user, json: #"{"type":"like"}"#
                                )
                                .status)
                            if let id = comment.body["comment"]["id"].string {
                                statuses.append(try await server.api(.DELETE, "/feeds/comments/\(id)", as: user).status)
                            }
                            statuses.append(
                                try await server.api(.DELETE, "/feeds/activities/\(post)/reactions/like", as: user).status)
                        }
                        return statuses
                    }
                }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }
            #expect(statuses.count == 24 * 4 * 5 && statuses.allSatisfy { $0 == 200 || $0 == 201 }, "\(Set(statuses))")
            let counts = try await server.api(.GET, "/feeds/activities/\(post)", as: "alice").body["activity"]
            // The first comment and the 96 replies stay; the 96 comments went again.
            #expect(counts["comment_count"].int == 1 + 24 * 4 && counts["reaction_count"].int == 0, "\(counts)")
        }
    }
}

extension TestServer {
    /// `POST /feeds/comments` on an activity, as `user`.
    func comment(on activityID: String, _ text: String, as user: String) async throws -> Reply {
        try await api(
            .POST, "/feeds/comments", as: user,
            json: #"{"object_id":"\#(activityID)","object_type":"activity","comment":"\#(text)"}"#)
    }

    /// `POST /feeds/comments` replying to a comment, as `user`.
    func reply(to commentID: String, _ text: String, as user: String) async throws -> Reply {
        try await api(.POST, "/feeds/comments", as: user, json: #"{"parent_id":"\#(commentID)","comment":"\#(text)"}"#)
    }
}
