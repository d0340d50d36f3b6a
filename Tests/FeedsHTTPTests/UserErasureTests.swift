import FeedsCore
import FeedsPostgres
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

/// DeleteUsers, DeleteFeedUserData and RestoreUsers through the real server: the work runs as a
/// task after the call, and a hard delete leaves nothing of the person: no row in any table, no
/// object in the store, no cached variant; the counts others see stay right.
@Suite struct UserErasureTests {
    /// A name found nowhere else, so that a search of every table for it finds only them.
    static let erin = "erin-7c1d93"
    static let png = Data(PNGWriter.png(width: 40, height: 30))

    /// Everything a person does in Feeds, to bob's things and to their own: returns bob's post,
    /// erin's post and erin's file URL.
    func liveALife(_ server: TestServer) async throws -> (bobPost: String, erinPost: String, file: String) {
        let erin = Self.erin
        let bobPost = try #require(try await server.addActivity(as: "bob", text: "bob's")["id"].string)
        var form = MultipartForm()
        form.add("file", fileName: "me.png", Self.png)
        let upload = try await server.upload("/uploads/image", as: erin, form: form)
        #expect(upload.status == 201, "\(upload.text)")
        let file = try #require(upload.body["file"].string)
        // A cached variant of it.
        #expect(try await server.fetch(file + "&w=10").status == 200)
        let erinPost = try #require(
            try await server.addActivity(
                as: erin, text: "erin's", extra: #""attachments":[{"type":"image","image_url":"\#(file)"}]"#)["id"].string)
        let steps: [(String, String, String?)] = [
            ("/feeds/activities/\(bobPost)/reactions", #"{"type":"like","create_notification_activity":true}"#, erin),
            ("/feeds/comments", #"{"object_id":"\#(bobPost)","object_type":"activity","comment":"nice","create_notification_activity":true}"#, erin),
            ("/feeds/comments", #"{"object_id":"\#(erinPost)","object_type":"activity","comment":"bob was here"}"#, "bob"),
            ("/feeds/activities/\(bobPost)/bookmarks", #"{"new_folder":{"name":"keep"}}"#, erin),
            ("/feeds/follows", #"{"source":"timeline:\#(erin)","target":"user:bob"}"#, erin),
            ("/feeds/follows", #"{"source":"timeline:bob","target":"user:\#(erin)"}"#, "bob"),
        ]
        for (path, json, user) in steps {
            let reply = try await server.api(.POST, path, as: user, json: json)
            #expect([200, 201].contains(reply.status), "\(path): \(reply.text)")
        }
        let comment = try await server.api(
            .POST, "/feeds/comments", as: "bob", json: #"{"object_id":"\#(bobPost)","object_type":"activity","comment":"mine"}"#)
        let commentID = try #require(comment.body["comment"]["id"].string)
        #expect(
            try await server.api(.POST, "/feeds/comments/\(commentID)/reactions", as: erin, json: #"{"type":"heart"}"#).status == 201)
        let poll = try await server.api(.POST, "/polls", as: "bob", json: #"{"name":"Lunch?","options":[{"text":"a"}]}"#)
        let pollID = try #require(poll.body["poll"]["id"].string)
        let option = try #require(poll.body["poll"]["options"][0]["id"].string)
        let pollPost = try #require(try await server.addActivity(as: "bob", extra: #""poll_id":"\#(pollID)""#)["id"].string)
        #expect(
            try await server.api(
                .POST, "/feeds/activities/\(pollPost)/polls/\(pollID)/vote", as: erin, json: #"{"vote":{"option_id":"\#(option)"}}"#
            ).status == 201)
        #expect(try await server.api(.POST, "/polls", as: erin, json: #"{"name":"Mine","options":[{"text":"x"}]}"#).status == 201)
        return (bobPost, erinPost, file)
    }

    /// Waits for the task to end and returns it.
    func finished(_ server: TestServer, _ reply: TestServer.Reply) async throws -> JSONValue {
        #expect(reply.status == 201, "\(reply.text)")
        let id = try #require(reply.body["task_id"].string)
        try await eventually("task \(id) done") {
            let task = try await server.api(.GET, "/tasks/\(id)", as: nil).body
            return ["completed", "failed"].contains(task["status"].string ?? "")
        }
        let task = try await server.api(.GET, "/tasks/\(id)", as: nil).body
        #expect(task["status"].string == "completed", "\(task)")
        return task
    }

    /// Rows of every table that name `needle` anywhere in them, by table; `except` are left out.
    func rowsNaming(_ needle: String, _ server: TestServer, except: Set<String>) async throws -> [String: Int] {
        var tables: [String] = []
        for try await table in try await server.database.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1", logger: TestDatabase.logger
        ).decode(String.self) where !except.contains(table) { tables.append(table) }
        var found: [String: Int] = [:]
        for table in tables {
            let rows = try await server.database.query(
                "SELECT count(*)::int FROM \(unescaped: table) t WHERE t::text LIKE \("%\(needle)%")", logger: TestDatabase.logger)
            for try await n in rows.decode(Int.self) where n > 0 { found[table] = n }
        }
        return found
    }

    @Test(arguments: Backend.allCases) func aHardDeletedUserLeavesNothingBehind(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let erin = Self.erin
            let (bobPost, erinPost, file) = try await liveALife(server)
            let key = try #require(file.split(separator: "?").first.map { String($0.split(separator: "/cdn/").last ?? "") })
            #expect(try await rowsNaming(erin, server, except: []).count > 10)

            let task = try await finished(
                server, try await server.api(.POST, "/users/delete", as: nil, json: #"{"user_ids":["\#(erin)"],"user":"hard"}"#))
            #expect(task["result"]["users_done"].int == 1, "\(task)")
            #expect(task["result"]["deleted_activities"].int == 1, "\(task)")
            #expect(task["result"]["deleted_reactions"].int == 1, "\(task)")
            #expect(task["result"]["deleted_files"].int == 1, "\(task)")

            // No row names them, nor their post, in any table: the task's own record aside (the
            // operator's, kept a week) and the real-time relay (events already sent, kept minutes).
            let transient: Set<String> = ["tasks", "realtime_events"]
            #expect(try await rowsNaming(erin, server, except: transient) == [:])
            #expect(try await rowsNaming(erinPost, server, except: transient) == [:])
            #expect(try await rowsNaming(key, server, except: transient) == [:])
            // No object in the store, no cached variant.
            if let bucket = server.bucket {
                #expect(try await bucket.keys().filter { $0.contains(key) } == [])
            } else {
                let stored = FileManager.default.enumerator(atPath: server.configuration.cdnDirectory.path)?.allObjects ?? []
                #expect(stored.compactMap { $0 as? String }.filter { $0.contains("me.png") } == [], "\(stored)")
            }
            let variants = (try? FileManager.default.contentsOfDirectory(atPath: server.configuration.variantDirectory.path)) ?? []
            #expect(variants.isEmpty, "\(variants)")
            #expect(try await server.fetch(file).status == 404)

            // What bob sees is counted right: no reaction, comment, bookmark or follow of theirs.
            let post = try await server.api(.GET, "/feeds/activities/\(bobPost)", as: "bob").body["activity"]
            // Bob's own comment stays.
            #expect(post["reaction_count"].int == 0 && post["comment_count"].int == 1, "\(post)")
            #expect(post["bookmark_count"].int == 0, "\(post)")
            let feed = try await server.api(.POST, "/feeds/feed_groups/user/feeds/bob", as: "bob", json: "{}").body["feed"]
            #expect(feed["follower_count"].int == 0 && feed["following_count"].int == 0, "\(feed)")
            let timeline = try await server.api(.POST, "/feeds/feed_groups/timeline/feeds/bob", as: "bob", json: "{}").body
            #expect(timeline["feed"]["following_count"].int == 0, "\(timeline["feed"])")
            let bell = try await server.api(.POST, "/feeds/feed_groups/notification/feeds/bob", as: "bob", json: "{}").body
            #expect(bell["aggregated_activities"].array.isEmpty, "\(bell["aggregated_activities"])")
        }
    }

    @Test func aSoftDeletedUserIsRefusedAndRestoredWithTheirPosts() async throws {
        try await TestServer.run { server in
            let erin = Self.erin
            let (bobPost, erinPost, _) = try await liveALife(server)
            _ = try await finished(
                server,
                try await server.api(
                    .POST, "/users/delete", as: nil, json: #"{"user_ids":["\#(erin)"],"user":"soft","messages":"soft"}"#))
            expectAPIError(try await server.api(.GET, "/feeds/activities/\(bobPost)", as: erin), status: 403, code: 17)
            expectAPIError(try await server.api(.GET, "/feeds/activities/\(erinPost)", as: "bob"), status: 404, code: 16)
            #expect(try await server.api(.GET, "/feeds/activities/\(bobPost)", as: "bob").body["activity"]["comment_count"].int == 1)
            // Their reaction was not a post: it stays.
            #expect(try await server.api(.GET, "/feeds/activities/\(bobPost)", as: "bob").body["activity"]["reaction_count"].int == 1)

            let restored = try await server.api(.POST, "/users/restore", as: nil, json: #"{"user_ids":["\#(erin)"]}"#)
            #expect(restored.status == 201, "\(restored.text)")
            try await eventually("erin's token accepted again") {
                try await server.api(.GET, "/feeds/activities/\(bobPost)", as: erin).status == 200
            }
            try await eventually("erin's post and comment back") {
                let post = try await server.api(.GET, "/feeds/activities/\(erinPost)", as: "bob")
                let bobs = try await server.api(.GET, "/feeds/activities/\(bobPost)", as: "bob").body["activity"]
                return post.status == 200 && bobs["comment_count"].int == 2
            }
            let feed = try await server.api(.POST, "/feeds/feed_groups/user/feeds/\(erin)", as: "bob", json: "{}").body
            #expect(feed["activities"].array.compactMap { $0["id"].string } == [erinPost], "\(feed["activities"])")
            // Restoring again: they are not deleted.
            expectAPIError(
                try await server.api(.POST, "/users/restore", as: nil, json: #"{"user_ids":["\#(erin)"]}"#), status: 400, code: 4)
        }
    }

    @Test func deletingFeedUserDataKeepsTheAccount() async throws {
        try await TestServer.run { server in
            let erin = Self.erin
            let (bobPost, erinPost, file) = try await liveALife(server)
            let task = try await finished(
                server, try await server.api(.POST, "/feeds/users/\(erin)/delete", as: nil, json: #"{"hard_delete":true}"#))
            #expect(task["result"]["deleted_feeds"].int ?? 0 >= 2, "\(task)")
            expectAPIError(try await server.api(.GET, "/feeds/activities/\(erinPost)", as: "bob"), status: 404, code: 16)
            #expect(try await server.fetch(file).status == 404)
            let post = try await server.api(.GET, "/feeds/activities/\(bobPost)", as: "bob").body["activity"]
            #expect(post["reaction_count"].int == 0 && post["comment_count"].int == 1 && post["bookmark_count"].int == 0)
            // The account stays, and goes on.
            let left = try await rowsNaming(erin, server, except: ["tasks", "realtime_events"])
            #expect(left.keys.sorted() == ["users"], "\(left)")
            _ = try await server.addActivity(as: erin, text: "still here")
        }
    }

    /// Only the server deletes; every list is bounded; Chat's options are refused, not ignored;
    /// an unknown user changes nothing; a restore waits for a running deletion.
    @Test func hostileDeletionsChangeNothing() async throws {
        try await TestServer.run { server in
            let erin = Self.erin
            _ = try await server.addActivity(as: erin)
            for (json, field) in [
                (#"{"user_ids":[]}"#, "user_ids"),
                (#"{"user_ids":[\#((0..<10_000).map { #""u\#($0)""# }.joined(separator: ","))],"user":"hard"}"#, "user_ids"),
                (#"{"user_ids":["a","a"],"user":"soft"}"#, "user_ids"), (#"{"user_ids":[""],"user":"soft"}"#, "user_ids"),
                (#"{"user_ids":["\#(erin)"]}"#, "user"), (#"{"user_ids":["\#(erin)"],"user":"gone"}"#, "user"),
                (#"{"user_ids":["\#(erin)"],"messages":"all"}"#, "messages"),
                (#"{"user_ids":["\#(erin)"],"user":"soft","conversations":"hard"}"#, "conversations"),
                (#"{"user_ids":["\#(erin)"],"user":"soft","new_channel_owner_id":"bob"}"#, "new_channel_owner_id"),
            ] {
                expectAPIError(try await server.api(.POST, "/users/delete", as: nil, json: json), status: 400, code: 4, field: field)
            }
            expectAPIError(
                try await server.api(.POST, "/users/delete", as: erin, json: #"{"user_ids":["\#(erin)"],"user":"hard"}"#),
                status: 403, code: 17)
            expectAPIError(try await server.api(.POST, "/feeds/users/bob/delete", as: erin, json: "{}"), status: 403, code: 17)
            expectAPIError(
                try await server.api(.POST, "/users/delete", as: nil, json: #"{"user_ids":["\#(erin)","nobody"],"user":"hard"}"#),
                status: 404, code: 16)
            expectAPIError(try await server.api(.POST, "/feeds/users/nobody/delete", as: nil, json: "{}"), status: 404, code: 16)
            expectAPIError(try await server.api(.POST, "/users/restore", as: nil, json: #"{"user_ids":["nobody"]}"#), status: 404, code: 16)
            // Nothing was queued or marked: erin goes on.
            _ = try await server.addActivity(as: erin)
            let tasks = try await server.database.query("SELECT count(*)::int FROM tasks", logger: TestDatabase.logger)
            for try await n in tasks.decode(Int.self) { #expect(n == 0) }

            // A deletion still waiting: RestoreUsers answers 409 and changes nothing.
            try await server.database.query(
                """
                UPDATE users SET deleted_at = now() WHERE id = \(erin);
                """, logger: TestDatabase.logger)
            try await server.database.query(
                """
                INSERT INTO tasks (id, kind, status, input, held_by, held_until)
                VALUES (gen_random_uuid(), 'delete-users', 'running', \(#"{"userIDs":["\#(erin)"]}"#)::jsonb, 'elsewhere', now() + interval '1 hour')
                """, logger: TestDatabase.logger)
            expectAPIError(try await server.api(.POST, "/users/restore", as: nil, json: #"{"user_ids":["\#(erin)"]}"#), status: 409, code: 4)
        }
    }
}
