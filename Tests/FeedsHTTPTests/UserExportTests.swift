import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// ExportFeedUserData and ExportUsers through the real server: a task whose `result.url` is a
/// JSON file with everything the person has, their files behind fresh signed URLs; the file is
/// theirs, so their erasure deletes it too.
@Suite struct UserExportTests {
    static let erin = "erin-e4b0"

    /// The export the task's `result.url` names.
    func exported(_ server: TestServer, _ task: JSONValue) async throws -> JSONValue {
        let url = try #require(task["result"]["url"].string, "\(task)")
        let file = try await server.fetch(url)
        #expect(file.status == 200, "\(file.text.prefix(200))")
        return try JSONDecoder().decode(JSONValue.self, from: file.data)
    }

    @Test(arguments: Backend.allCases) func aPersonsExportHoldsAllTheirsAndGoesWithThem(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let erin = Self.erin
            let (bobPost, erinPost, _) = try await server.liveALife(as: erin)
            let task = try await server.finished(try await server.api(.POST, "/feeds/users/\(erin)/export", as: nil))
            let export = try await exported(server, task)
            let person = export["users"][0]
            #expect(export["users"].array.count == 1 && person["user_id"].string == erin, "\(export)")
            #expect(person["user"][0]["id"].string == erin)
            #expect(person["activities"].array.compactMap { $0["id"].string } == [erinPost])
            #expect(person["activity_reactions"].array.map { $0["activity_id"] } == [.string(bobPost)])
            #expect(person["comments"].array.count == 1 && person["comment_reactions"].array.count == 1)
            #expect(person["bookmarks"].array.count == 1 && person["bookmark_folders"].array.count == 1)
            #expect(person["follows"].array.count == 1 && person["followers"].array.count == 1, "\(person["follows"])")
            #expect(person["poll_votes"].array.count == 1 && person["polls"].array.count == 1)
            // Bob's things are not in it.
            #expect(!String(decoding: try JSONEncoder().encode(person["activities"]), as: UTF8.self).contains("bob's"))
            // Their file, behind a fresh signed URL that serves it.
            let files = person["files"].array
            #expect(files.count == 1 && files[0]["record"]["file_name"].string == "me.png", "\(files)")
            let image = try await server.fetch(try #require(files[0]["url"].string))
            #expect(image.status == 200 && image.headers.first(name: "Content-Type") == "image/png")
            #expect(task["result"]["rows"].int ?? 0 >= 12, "\(task)")

            // The export is theirs: a hard delete takes it with everything else.
            let url = try #require(task["result"]["url"].string)
            _ = try await server.finished(
                try await server.api(.POST, "/users/delete", as: nil, json: #"{"user_ids":["\#(erin)"],"user":"hard"}"#))
            #expect(try await server.fetch(url).status == 404)
        }
    }

    @Test func exportUsersWritesOneFileForSeveral() async throws {
        try await TestServer.run { server in
            for user in ["ann", "ben"] { _ = try await server.addActivity(as: user, text: "\(user)'s") }
            let task = try await server.finished(
                try await server.api(.POST, "/export/users", as: nil, json: #"{"user_ids":["ann","ben"]}"#))
            let export = try await exported(server, task)
            #expect(export["users"].array.compactMap { $0["user_id"].string } == ["ann", "ben"], "\(export)")
            #expect(export["users"][1]["activities"][0]["text"].string == "ben's")
        }
    }

    /// Only the server exports; unknown users and too many are refused with nothing queued.
    @Test func hostileExportsAreRefused() async throws {
        try await TestServer.run { server in
            _ = try await server.addActivity(as: "ann")
            expectAPIError(try await server.api(.POST, "/feeds/users/bob/export", as: "ann"), status: 403, code: 17)
            expectAPIError(try await server.api(.POST, "/feeds/users/ann/export", as: "ann"), status: 403, code: 17)
            expectAPIError(try await server.api(.POST, "/export/users", as: "ann", json: #"{"user_ids":["ann"]}"#), status: 403, code: 17)
            expectAPIError(try await server.api(.POST, "/feeds/users/nobody/export", as: nil), status: 404, code: 16)
            let many = (0..<26).map { #""u\#($0)""# }.joined(separator: ",")
            for json in [#"{"user_ids":[\#(many)]}"#, #"{"user_ids":[]}"#, #"{"user_ids":["ann","ann"]}"#] {
                expectAPIError(try await server.api(.POST, "/export/users", as: nil, json: json), status: 400, code: 4, field: "user_ids")
            }
            expectAPIError(try await server.api(.POST, "/export/users", as: nil, json: #"{"user_ids":["ann","nobody"]}"#), status: 404, code: 16)
            let tasks = try await server.database.query("SELECT count(*)::int FROM tasks", logger: TestDatabase.logger)
            for try await n in tasks.decode(Int.self) { #expect(n == 0) }
        }
    }
}
