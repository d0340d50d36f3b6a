import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

/// `add-activity` is the owner's: a user posts to feeds of theirs or to new ones (which become
/// theirs), never into another user's; the server posts anywhere. `own_capabilities` says the same.
@Suite struct FeedOwnershipTests {
    @Test func aUserCannotPostIntoAnotherUsersFeedAndNothingIsWritten() async throws {
        try await TestServer.run { server in
            try await server.createFeedGroups("brand")
            try await server.addActivity(as: "alice", feeds: ["user:alice"])
            for feeds in [#"["user:alice"]"#, #"["user:mallory","user:alice"]"#, #"["user:alice","brand:new"]"#] {
                let refused = try await server.api(
                    .POST, "/feeds/activities", as: "mallory", json: #"{"type":"post","text":"spam","feeds":\#(feeds)}"#)
                expectAPIError(refused, status: 403, code: 17)
            }
            // No activity, and neither of the new feeds the refused posts named was created.
            let spam = try await server.api(.POST, "/feeds/activities/query", as: nil, json: #"{"filter":{"user_id":"mallory"}}"#)
            #expect(spam.body["activities"] == .array([]))
            let feeds = try await server.api(
                .POST, "/feeds/feeds/query", as: nil, json: #"{"filter":{"feed":{"$in":["user:mallory","brand:new"]}}}"#)
            #expect(feeds.body["feeds"] == .array([]))
            #expect(
                try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: "{}").body["activities"]
                    .array.count == 1)

            // New feeds become the poster's; the server may post as anyone anywhere.
            try await server.addActivity(as: "mallory", feeds: ["user:mallory", "brand:new"])
            let owned = try await server.api(.POST, "/feeds/feed_groups/brand/feeds/new", as: "mallory", json: "{}")
            #expect(owned.body["feed"]["created_by"]["id"].string == "mallory")
            #expect(owned.body["feed"]["own_capabilities"].array.contains(.string("add-activity")))
            let byServer = try await server.api(
                .POST, "/feeds/activities", as: nil, json: #"{"type":"post","user_id":"bob","feeds":["user:alice"]}"#)
            #expect(byServer.status == 201, "\(byServer.text)")
        }
    }

    @Test func aRefusedPostWithFilesLeavesNoObjectBehind() async throws {
        try await TestServer.run { server in
            try await server.addActivity(as: "alice", feeds: ["user:alice"])
            func form(_ feed: String) -> MultipartForm {
                var form = MultipartForm()
                form.add("activity", json: #"{"type":"post","feeds":["\#(feed)"],"attachment_uploads":[{"type":"file","file":"f"}]}"#)
                form.add("f", fileName: "a.txt", Data("hello".utf8))
                return form
            }
            expectAPIError(try await server.upload("/feeds/activities", as: "mallory", form: form("user:alice")), status: 403, code: 17)
            // The file was stored before the write was refused: it is claimed for deletion before
            // the reply, and deleted (row and all) after it.
            let live = "SELECT count(*)::int FROM cdn_objects WHERE owner_id = 'mallory' AND state <> 'deleting'"
            #expect(try await server.number(PostgresQuery(unsafeSQL: live)) == 0)
            try await eventually("the refused post's file deleted") {
                try await server.number("SELECT count(*)::int FROM cdn_objects WHERE owner_id = 'mallory'") == 0
            }
            // The same form into her own feed keeps its file: the refusal above was the feed's doing.
            #expect(try await server.upload("/feeds/activities", as: "mallory", form: form("user:mallory")).status == 201)
            #expect(try await server.number(PostgresQuery(unsafeSQL: live)) == 1)
        }
    }
}
