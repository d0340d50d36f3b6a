import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// Bookmarks of comments (AddCommentBookmark, UpdateCommentBookmark, DeleteCommentBookmark)
/// through the real server: the comment's own count, apart from its activity's; QueryBookmarks
/// lists both kinds; and what a hostile client sends.
@Suite struct CommentBookmarkTests {
    func comment(on activity: String, as user: String, _ server: TestServer) async throws -> String {
        let made = try await server.api(
            .POST, "/feeds/comments", as: user, json: #"{"object_id":"\#(activity)","object_type":"activity","comment":"nice"}"#)
        return try #require(made.body["comment"]["id"].string, "\(made.text)")
    }

    @Test func aCommentsBookmarkCountsOnTheCommentAndListsWithActivities() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice", text: "post")["id"].string)
            let comment = try await comment(on: id, as: "alice", server)
            let path = "/feeds/comments/\(comment)/bookmarks"
            let made = try await server.api(.POST, path, as: "bob", json: #"{"custom":{"why":"funny"}}"#)
            #expect(made.status == 201, "\(made.text)")
            let bookmark = made.body["bookmark"]
            #expect(bookmark["object_type"].string == "comment" && bookmark["object_id"].string == comment)
            #expect(bookmark["comment"]["id"].string == comment && bookmark["comment"]["bookmark_count"].int == 1)
            #expect(bookmark["activity"]["id"].string == id && bookmark["activity_id"].string == id)
            // The activity's own count and own bookmarks are of the activity alone.
            #expect(bookmark["activity"]["bookmark_count"].int == 0 && bookmark["activity"]["own_bookmarks"].array.isEmpty)
            #expect(bookmark["custom"]["why"].string == "funny")
            // Again is the same bookmark; into a folder is a second, and still one person.
            #expect(try await server.api(.POST, path, as: "bob", json: "{}").body["bookmark"]["comment"]["bookmark_count"].int == 1)
            let filed = try await server.api(.POST, path, as: "bob", json: #"{"new_folder":{"name":"Jokes"}}"#)
            let folder = try #require(filed.body["bookmark"]["folder"]["id"].string, "\(filed.text)")
            #expect(filed.body["bookmark"]["comment"]["bookmark_count"].int == 1)
            // And the activity bookmarked too: the two kinds apart.
            let activityBookmark = try await server.api(.POST, "/feeds/activities/\(id)/bookmarks", as: "bob", json: "{}")
            #expect(activityBookmark.body["bookmark"]["activity"]["bookmark_count"].int == 1)
            #expect(activityBookmark.body["bookmark"]["activity"]["own_bookmarks"].array.count == 1)
            // Comment reads carry the count.
            let listed = try await server.api(
                .GET, "/feeds/comments", as: "carol", query: "&object_id=\(id)&object_type=activity")
            #expect(listed.body["comments"][0]["bookmark_count"].int == 1, "\(listed.text)")

            // QueryBookmarks lists all three; object_type narrows, object_id names the comment.
            let all = try await server.api(.POST, "/feeds/bookmarks/query", as: "bob", json: #"{"limit":2}"#)
            #expect(all.body["bookmarks"].array.count == 2, "\(all.text)")
            let next = try #require(all.body["next"].string)
            let rest = try await server.api(.POST, "/feeds/bookmarks/query", as: "bob", json: #"{"limit":2,"next":"\#(next)"}"#)
            #expect(rest.body["bookmarks"].array.count == 1 && rest.body["next"] == .null, "\(rest.text)")
            let kinds = (all.body["bookmarks"].array + rest.body["bookmarks"].array).compactMap { $0["object_type"].string }
            #expect(kinds.sorted() == ["activity", "comment", "comment"])
            let comments = try await server.api(
                .POST, "/feeds/bookmarks/query", as: "bob", json: #"{"filter":{"object_type":"comment"}}"#)
            #expect(comments.body["bookmarks"].array.allSatisfy { $0["comment"]["id"].string == comment }, "\(comments.text)")
            #expect(comments.body["bookmarks"].array.count == 2)
            let byObject = try await server.api(
                .POST, "/feeds/bookmarks/query", as: "bob", json: #"{"filter":{"object_id":"\#(comment)"}}"#)
            #expect(byObject.body["bookmarks"].array.count == 2)

            // Out of its folder while one outside folders exists: a conflict. Then delete that one,
            // move, and delete again: the comment's count falls to none, the activity's stays.
            let clash = #"{"folder_id":"\#(folder)","new_folder_id":"","custom":{"why":"moved"}}"#
            expectAPIError(try await server.api(.PATCH, path, as: "bob", json: clash), status: 409, code: 4)
            let removed = try await server.api(.DELETE, path, as: "bob")
            #expect(removed.status == 200 && removed.body["bookmark"]["object_type"].string == "comment", "\(removed.text)")
            #expect(removed.body["bookmark"]["comment"]["bookmark_count"].int == 1, "the one in the folder is left")
            let moved = try await server.api(.PATCH, path, as: "bob", json: clash)
            #expect(moved.status == 200 && moved.body["bookmark"]["folder"] == .null, "\(moved.text)")
            #expect(moved.body["bookmark"]["custom"]["why"].string == "moved")
            #expect(try await server.api(.DELETE, path, as: "bob").status == 200)
            #expect(try await server.number("SELECT bookmark_count FROM comments WHERE id = \(comment)") == 0)
            #expect(try await server.number("SELECT bookmark_count FROM activities WHERE id = \(id)") == 1)
            // A hard-deleted comment takes its bookmarks with it.
            _ = try await server.api(.POST, path, as: "carol", json: "{}")
            let gone = try await server.api(.DELETE, "/feeds/comments/\(comment)", as: "alice", query: "&hard_delete=true")
            #expect(gone.status == 200, "\(gone.text)")
            #expect(try await server.number("SELECT count(*)::int FROM bookmarks WHERE comment_id IS NOT NULL") == 0)
            #expect(try await server.number("SELECT count(*)::int FROM bookmarks") == 1)
        }
    }

    /// A comment on an activity the user may not read, another user's folder, another user's name,
    /// a missing comment, a hostile id: refused, nothing written.
    @Test func hostileCommentBookmarksAreRefusedAndWriteNothing() async throws {
        try await TestServer.run { server in
            let hidden = try #require(try await server.addActivity(as: "alice", extra: #""visibility":"private""#)["id"].string)
            let secret = try await comment(on: hidden, as: "alice", server)
            expectAPIError(
                try await server.api(.POST, "/feeds/comments/\(secret)/bookmarks", as: "mallory", json: "{}"), status: 404, code: 16)
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let comment = try await comment(on: id, as: "alice", server)
            let path = "/feeds/comments/\(comment)/bookmarks"
            let bobs = try await server.api(.POST, path, as: "bob", json: #"{"new_folder":{"name":"Bob's"}}"#)
            let folder = try #require(bobs.body["bookmark"]["folder"]["id"].string, "\(bobs.text)")
            expectAPIError(
                try await server.api(.POST, path, as: "mallory", json: #"{"folder_id":"\#(folder)"}"#), status: 404, code: 16)
            expectAPIError(try await server.api(.POST, path, as: "mallory", json: #"{"user_id":"bob"}"#), status: 403, code: 17)
            expectAPIError(try await server.api(.DELETE, path, as: "mallory", query: "&user_id=bob"), status: 403, code: 17)
            expectAPIError(try await server.api(.DELETE, path, as: "mallory"), status: 404, code: 16)
            expectAPIError(
                try await server.api(.PATCH, path, as: "mallory", json: #"{"custom":{"x":1}}"#), status: 404, code: 16)
            expectAPIError(
                try await server.api(.POST, "/feeds/comments/no-such-comment/bookmarks", as: "bob", json: "{}"), status: 404,
                code: 16)
            let long = String(repeating: "c", count: 300)
            let huge = try await server.api(.POST, "/feeds/comments/\(long)/bookmarks", as: "bob", json: "{}")
            #expect(huge.status == 400 || huge.status == 404, "\(huge.text)")
            expectAPIError(
                try await server.api(.POST, path, as: "bob", json: #"{"folder_id":"\#(folder)","new_folder":{"name":"x"}}"#),
                status: 400, code: 4, field: "new_folder")
            expectAPIError(
                try await server.api(.POST, "/feeds/bookmarks/query", as: "bob", json: #"{"filter":{"object_type":"poll"}}"#),
                status: 400, code: 4)
            #expect(try await server.number("SELECT count(*)::int FROM bookmarks WHERE user_id = 'mallory'") == 0)
            #expect(try await server.number("SELECT bookmark_count FROM comments WHERE id = \(secret)") == 0)
        }
    }
}
