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
            let (bobPost, erinPost, file) = try await server.liveALife(as: Self.erin)
            let key = try #require(file.split(separator: "?").first.map { String($0.split(separator: "/cdn/").last ?? "") })
            #expect(try await rowsNaming(erin, server, except: []).count > 10)

            let task = try await server.finished(
                try await server.api(.POST, "/users/delete", as: nil, json: #"{"user_ids":["\#(erin)"],"user":"hard"}"#))
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
            let (bobPost, erinPost, _) = try await server.liveALife(as: Self.erin)
            _ = try await server.finished(
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
            let (bobPost, erinPost, file) = try await server.liveALife(as: Self.erin)
            let task = try await server.finished(
                try await server.api(.POST, "/feeds/users/\(erin)/delete", as: nil, json: #"{"hard_delete":true}"#))
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

    /// More than a step takes (500 reactions, 100 activities a step): the task goes on step by
    /// step, its progress saved, until none is left; every count is back to what others made.
    @Test func aLargeErasureRunsInStepsToTheEnd() async throws {
        try await TestServer.run { server in
            let erin = Self.erin
            _ = try await server.addActivity(as: "bob")
            _ = try await server.addActivity(as: erin)
            try await server.database.query(
                """
                INSERT INTO activities (id, type, user_id, text, feeds)
                SELECT 'bulk-' || g, 'post', CASE WHEN g <= 1100 THEN 'bob' ELSE \(erin) END, 'x', ARRAY['user:bob']
                FROM generate_series(1, 1350) g
                """, logger: TestDatabase.logger)
            try await server.database.query(
                """
                INSERT INTO activity_reactions (activity_id, user_id, type)
                SELECT 'bulk-' || g, \(erin), 'like' FROM generate_series(1, 1100) g
                UNION ALL SELECT 'bulk-' || g, 'bob', 'like' FROM generate_series(1, 1100) g
                """, logger: TestDatabase.logger)
            let task = try await server.finished(
                try await server.api(.POST, "/users/delete", as: nil, json: #"{"user_ids":["\#(erin)"],"user":"hard"}"#))
            #expect(task["result"]["deleted_reactions"].int == 1100, "\(task)")
            #expect(task["result"]["deleted_activities"].int == 251, "\(task)")
            let counts = try await server.database.query(
                "SELECT sum(reaction_count)::int, count(*)::int FROM activities WHERE id LIKE 'bulk-%'", logger: TestDatabase.logger)
            for try await (reactions, activities) in counts.decode((Int, Int).self) {
                #expect(reactions == 1100 && activities == 1100)
            }
            #expect(try await rowsNaming(erin, server, except: ["tasks", "realtime_events"]) == [:])
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
