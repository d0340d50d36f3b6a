import FeedsCore
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

/// Bookmarks and their folders through the real server: one per folder, counts and own
/// bookmarks on activities, moves, pages, and what a hostile client sends.
@Suite struct BookmarkTests {
    @Test func bookmarksCountShowAsOwnAndGoIntoFolders() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice", text: "keep me")["id"].string)
            let path = "/feeds/activities/\(id)/bookmarks"
            let plain = try await server.api(.POST, path, as: "bob", json: #"{"custom":{"note":"later"}}"#)
            #expect(plain.status == 201, "\(plain.text)")
            #expect(
                plain.body["bookmark"]["object_id"].string == id && plain.body["bookmark"]["object_type"].string == "activity")
            #expect(plain.body["bookmark"]["folder"] == .null && plain.body["bookmark"]["custom"]["note"].string == "later")
            #expect(plain.body["bookmark"]["activity"]["bookmark_count"].int == 1)
            #expect(plain.body["bookmark"]["activity"]["own_bookmarks"].array.count == 1)
            // Again is the same bookmark.
            #expect(
                try await server.api(.POST, path, as: "bob", json: "{}").body["bookmark"]["activity"]["bookmark_count"].int == 1)

            let filed = try await server.api(.POST, path, as: "bob", json: #"{"new_folder":{"name":"Read later"}}"#)
            #expect(filed.status == 201, "\(filed.text)")
            let folder = try #require(filed.body["bookmark"]["folder"]["id"].string)
            #expect(filed.body["bookmark"]["folder"]["name"].string == "Read later")
            // The count is of people, not of their folders: bob is still one.
            #expect(filed.body["bookmark"]["activity"]["bookmark_count"].int == 1)
            // A new folder with a name the user has already is that folder.
            let same = try await server.api(.POST, path, as: "bob", json: #"{"new_folder":{"name":"Read later"}}"#)
            #expect(
                same.body["bookmark"]["folder"]["id"].string == folder
                    && same.body["bookmark"]["activity"]["bookmark_count"].int == 1)

            // A feed page carries the count for everyone, and each reader's own bookmarks.
            let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "bob", json: "{}")
            let read = try #require(page.body["activities"].array.first)
            #expect(read["bookmark_count"].int == 1 && read["own_bookmarks"].array.count == 2)
            #expect(read["own_bookmarks"].array.contains { $0["folder"]["name"].string == "Read later" })
            #expect(read["own_bookmarks"][0]["activity"]["id"].string == id)
            let byAlice = try await server.api(.GET, "/feeds/activities/\(id)", as: "alice")
            #expect(
                byAlice.body["activity"]["bookmark_count"].int == 1 && byAlice.body["activity"]["own_bookmarks"].array.isEmpty)

            // Removing the one outside folders leaves the one in the folder.
            let removed = try await server.api(.DELETE, path, as: "bob")
            #expect(removed.status == 200 && removed.body["bookmark"]["folder"] == .null, "\(removed.text)")
            #expect(removed.body["bookmark"]["activity"]["bookmark_count"].int == 1)
            expectAPIError(try await server.api(.DELETE, path, as: "bob"), status: 404, code: 16)
            let inFolder = try await server.api(.DELETE, path, as: "bob", query: "&folder_id=\(folder)")
            #expect(
                inFolder.status == 200 && inFolder.body["bookmark"]["activity"]["bookmark_count"].int == 0, "\(inFolder.text)")
        }
    }

    @Test func aBookmarkMovesBetweenFoldersAndOutOfThem() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let path = "/feeds/activities/\(id)/bookmarks"
            #expect(try await server.api(.POST, path, as: "bob", json: "{}").status == 201)
            let moved = try await server.api(.PATCH, path, as: "bob", json: #"{"new_folder":{"name":"Trips"},"custom":{"n":1}}"#)
            #expect(moved.status == 200, "\(moved.text)")
            let trips = try #require(moved.body["bookmark"]["folder"]["id"].string)
            #expect(moved.body["bookmark"]["custom"]["n"].int == 1)
            // Bookmarked outside folders again, it cannot move into Trips, where it is already.
            #expect(try await server.api(.POST, path, as: "bob", json: "{}").status == 201)
            expectAPIError(
                try await server.api(.PATCH, path, as: "bob", json: #"{"new_folder_id":"\#(trips)"}"#), status: 409, code: 4,
                field: "new_folder_id")
            #expect(try await server.api(.DELETE, path, as: "bob").status == 200)
            // new_folder_id "" takes it out of its folder.
            let out = try await server.api(.PATCH, path, as: "bob", json: #"{"folder_id":"\#(trips)","new_folder_id":""}"#)
            #expect(out.status == 200 && out.body["bookmark"]["folder"] == .null, "\(out.text)")
            expectAPIError(
                try await server.api(.PATCH, path, as: "bob", json: #"{"folder_id":"\#(trips)"}"#), status: 404, code: 16)
            // A move of a bookmark that does not exist, for a user who does not either, makes no folder.
            expectAPIError(
                try await server.api(.PATCH, path, as: nil, json: #"{"user_id":"nobody","new_folder":{"name":"Ghost"}}"#),
                status: 404,
                code: 16)
            #expect(try await server.number("SELECT count(*)::int FROM bookmark_folders WHERE name = 'Ghost'") == 0)
        }
    }

    @Test func queriesShowUsersOnlyTheirOwnAndPageExactly() async throws {
        try await TestServer.run { server in
            var ids: [String] = []
            for index in 0..<5 {
                ids.append(try #require(try await server.addActivity(as: "alice", text: "a\(index)")["id"].string))
            }
            for id in ids {
                #expect(try await server.api(.POST, "/feeds/activities/\(id)/bookmarks", as: "bob", json: "{}").status == 201)
            }
            #expect(
                try await server.api(
                    .POST, "/feeds/activities/\(ids[0])/bookmarks", as: "carl", json: #"{"new_folder":{"name":"Mine"}}"#
                )
                .status == 201)
            var seen: [String] = []
            var next: String?
            repeat {
                let cursor = next.map { #","next":"\#($0)""# } ?? ""
                let page = try await server.api(.POST, "/feeds/bookmarks/query", as: "bob", json: #"{"limit":2\#(cursor)}"#)
                #expect(page.status == 201, "\(page.text)")
                seen += page.body["bookmarks"].array.compactMap { $0["activity"]["id"].string }
                next = page.body["next"].string
            } while next != nil
            #expect(seen == ids.reversed())
            // Another user's bookmarks stay theirs, whatever the filter says.
            let spying = try await server.api(.POST, "/feeds/bookmarks/query", as: "bob", json: #"{"filter":{"user_id":"carl"}}"#)
            #expect(spying.status == 201 && spying.body["bookmarks"].array.isEmpty, "\(spying.text)")
            let byServer = try await server.api(.POST, "/feeds/bookmarks/query", as: nil, json: #"{"user_id":"carl"}"#)
            #expect(byServer.body["bookmarks"].array.map { $0["user"]["id"].string } == ["carl"], "\(byServer.text)")
            let folders = try await server.api(.POST, "/feeds/bookmark_folders/query", as: "bob", json: "{}")
            #expect(folders.status == 201 && folders.body["bookmark_folders"].array.isEmpty, "\(folders.text)")
            let carls = try await server.api(
                .POST, "/feeds/bookmark_folders/query", as: "carl", json: #"{"filter":{"name":"Mine"}}"#)
            #expect(carls.body["bookmark_folders"].array.map { $0["name"].string } == ["Mine"])
        }
    }

    @Test func foldersAreRenamedAndDeletedByTheirOwnerOnly() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let path = "/feeds/activities/\(id)/bookmarks"
            let made = try await server.api(.POST, path, as: "bob", json: #"{"new_folder":{"name":"One"}}"#)
            let one = try #require(made.body["bookmark"]["folder"]["id"].string)
            #expect(try await server.api(.POST, path, as: "bob", json: #"{"new_folder":{"name":"Two"}}"#).status == 201)

            let renamed = try await server.api(
                .PATCH, "/feeds/bookmark_folders/\(one)", as: "bob", json: #"{"name":"Uno","custom":{"c":1}}"#)
            #expect(renamed.status == 200 && renamed.body["bookmark_folder"]["name"].string == "Uno", "\(renamed.text)")
            expectAPIError(
                try await server.api(.PATCH, "/feeds/bookmark_folders/\(one)", as: "bob", json: #"{"name":"Two"}"#), status: 409,
                code: 4,
                field: "name")
            expectAPIError(
                try await server.api(.PATCH, "/feeds/bookmark_folders/\(one)", as: "mallory", json: #"{"name":"Mine now"}"#),
                status: 404,
                code: 16)
            expectAPIError(try await server.api(.DELETE, "/feeds/bookmark_folders/\(one)", as: "mallory"), status: 404, code: 16)
            // Deleting a folder deletes the bookmarks in it, and the counts follow.
            #expect(try await server.api(.DELETE, "/feeds/bookmark_folders/\(one)", as: "bob").status == 200)
            let read = try await server.api(.GET, "/feeds/activities/\(id)", as: "bob")
            #expect(read.body["activity"]["bookmark_count"].int == 1, "\(read.text)")
            expectAPIError(try await server.api(.DELETE, "/feeds/bookmark_folders/\(one)", as: "bob"), status: 404, code: 16)
        }
    }

    /// Private activities of others, other users' folders, both folder fields, bad names and a
    /// server token without a user: refused, with nothing written.
    @Test func hostileBookmarksAreRefusedAndWriteNothing() async throws {
        try await TestServer.run { server in
            let hidden = try #require(try await server.addActivity(as: "alice", extra: #""visibility":"private""#)["id"].string)
            expectAPIError(
                try await server.api(.POST, "/feeds/activities/\(hidden)/bookmarks", as: "mallory", json: "{}"), status: 404,
                code: 16)
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let path = "/feeds/activities/\(id)/bookmarks"
            let bobs = try await server.api(.POST, path, as: "bob", json: #"{"new_folder":{"name":"Bob's"}}"#)
            let folder = try #require(bobs.body["bookmark"]["folder"]["id"].string)
            expectAPIError(
                try await server.api(.POST, path, as: "mallory", json: #"{"folder_id":"\#(folder)"}"#), status: 404, code: 16)
            expectAPIError(
                try await server.api(.POST, path, as: "bob", json: #"{"folder_id":"\#(folder)","new_folder":{"name":"x"}}"#),
                status: 400,
                code: 4, field: "new_folder")
            for name in ["", "   ", String(repeating: "n", count: 256)] {
                let body = #"{"new_folder":{"name":"\#(name)"}}"#
                expectAPIError(try await server.api(.POST, path, as: "bob", json: body), status: 400, code: 4)
            }
            expectAPIError(try await server.api(.POST, path, as: nil, json: "{}"), status: 400, code: 4, field: "user_id")
            expectAPIError(try await server.api(.POST, path, as: "mallory", json: #"{"user_id":"bob"}"#), status: 403, code: 17)
            expectAPIError(try await server.api(.DELETE, path, as: "mallory", query: "&user_id=bob"), status: 403, code: 17)
            expectAPIError(
                try await server.api(.POST, "/feeds/bookmarks/query", as: "bob", json: #"{"filter":{"text":"x"}}"#), status: 400,
                code: 4)
            let long = String(repeating: "u", count: 256)
            expectAPIError(
                try await server.api(.POST, "/feeds/bookmarks/query", as: nil, json: #"{"user_id":"\#(long)"}"#), status: 400,
                code: 4,
                field: "user_id")
            #expect(try await server.number("SELECT count(*)::int FROM bookmarks WHERE user_id = 'mallory'") == 0)
            #expect(try await server.number("SELECT count(*)::int FROM bookmark_folders") == 1)
        }
    }
}
