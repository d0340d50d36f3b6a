import FeedsPostgres
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

/// Two server processes on one database: what an admin changes on one, the other enforces at
/// once, also after its listening connection was killed. The other node reloads on its own only
/// once an hour here, so a change it enforces reached it by notification; the waits are hang
/// guards, not measurements.
@Suite struct AppSettingsAcrossNodesTests {
    /// Uploads `name` to `node` until the answer is `status`.
    func waitUntil(_ node: FeedsNode, server: TestServer, uploads name: String, answers status: Int) async throws {
        var form = MultipartForm()
        form.add("file", fileName: name, Data("hello\n".utf8))
        let (token, body, contentType) = (try await server.token("alice"), form.data, form.contentType)
        let url = "\(node.baseURL)/api/v2/uploads/file?api_key=\(server.apiKey)"
        try await eventually("\(name) answering \(status) on the other node") {
            let reply = try await TestServer.send(
                .POST, url, body: body,
                headers: [("Stream-Auth-Type", "jwt"), ("Authorization", token), ("Content-Type", contentType)])
            return reply.status == status
        }
    }

    /// The listening connections of both nodes, by their last statement.
    func listeners(_ server: TestServer) async throws -> [Int32] {
        let rows = try await server.database.query(
            """
            SELECT pid FROM pg_stat_activity
            WHERE datname = current_database() AND query ILIKE 'LISTEN%feeds_app_settings%'
            """, logger: TestDatabase.logger)
        var pids: [Int32] = []
        for try await pid in rows.decode(Int32.self) { pids.append(pid) }
        return pids
    }

    @Test func aChangeOnOneNodeIsEnforcedByTheOtherByNotification() async throws {
        try await TestServer.run { server in
            let other = try await FeedsNode(
                databaseURL: server.databaseURL, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
                port: try freeLoopbackPort(), environment: ["FEEDS_SETTINGS_REFRESH": "3600"])
            defer { other.stop() }
            try await waitUntil(other, server: server, uploads: "a.exe", answers: 201)

            try await server.changeApp(#"{"file_upload_config":{"blocked_file_extensions":["exe"]}}"#)
            try await waitUntil(other, server: server, uploads: "b.exe", answers: 400)

            // Kill every listening connection (both nodes'); the change right after must still reach the other.
            var killed = try await listeners(server)
            #expect(killed.count == 2, "expected both nodes to listen, found \(killed)")
            for pid in killed {
                try await server.database.query("SELECT pg_terminate_backend(\(pid))", logger: TestDatabase.logger)
            }
            try await server.changeApp(#"{"file_upload_config":{"blocked_file_extensions":["bat"]}}"#)
            try await waitUntil(other, server: server, uploads: "c.bat", answers: 400)

            // Both listen again, on new connections, and hear the next change.
            let gone = killed
            try await eventually("both nodes listening again") {
                let now = try await listeners(server)
                return now.count == 2 && Set(now).isDisjoint(with: gone)
            }
            let now = try await listeners(server)
            #expect(now.count == 2 && Set(now).isDisjoint(with: killed), "listeners \(now) after killing \(killed)")
            killed = now
            try await server.changeApp(#"{"file_upload_config":{"blocked_file_extensions":["cmd"]}}"#)
            try await waitUntil(other, server: server, uploads: "d.cmd", answers: 400)
            try await waitUntil(other, server: server, uploads: "e.bat", answers: 201)
        }
    }

    /// A change written without its notification (as if it were lost) arrives with the periodic reload.
    @Test func thePeriodicReloadCoversAMissedNotification() async throws {
        try await TestServer.run(configure: { $0.settingsRefreshInterval = .milliseconds(200) }) { server in
            var form = MultipartForm()
            form.add("file", fileName: "a.exe", Data("hello\n".utf8))
            #expect(try await server.upload("/uploads/file", as: "alice", form: form).status == 201)
            try await server.database.query(
                """
                UPDATE app_settings SET version = version + 1,
                    file_upload_config = jsonb_set(file_upload_config, '{blocked_file_extensions}', '["exe"]')
                """, logger: TestDatabase.logger)
            let upload = form
            try await eventually("the periodic reload") {
                try await server.upload("/uploads/file", as: "alice", form: upload).status == 400
            }
        }
    }

    @Test func feedsAppSetAndShowWorkAgainstARunningServer() async throws {
        try await TestServer.run { server in
            let credentials = ["--url", server.baseURL, "--api-key", TestServer.apiKey, "--api-secret", TestServer.apiSecret]
            let set = try await FeedsExecutable.run(
                [
                    "app", "set", "--blocked-file-extensions", "exe,.BAT", "--image-allowed-mime-types", "image/png,image/jpeg",
                    "--file-size-limit", "10MB", "--cdn-expiration", "7d", "--strip-image-metadata", "off",
                ] + credentials)
            #expect(set.status == 0, "\(set.stderr)")
            #expect(set.stdout.contains(".exe .bat"), "\(set.stdout)")
            #expect(set.stdout.contains("image/png image/jpeg"))
            #expect(set.stdout.contains("10 MB"))
            #expect(set.stdout.contains("100 MB (default)"))
            #expect(set.stdout.contains("7 days (604800 s)"))
            #expect(set.stdout.contains("Photo metadata (strip_image_metadata): off, stored as sent"), "\(set.stdout)")
            #expect(set.stdout.contains("Guests (guest_user_creation_disabled): refused"), "\(set.stdout)")
            #expect(set.stdout.contains("Webhooks (webhook_url, event_hooks): none"), "\(set.stdout)")

            let app = try await server.api(.GET, "/app", as: nil).body["app"]
            #expect(app["file_upload_config"]["blocked_file_extensions"] == .array([.string("exe"), .string("bat")]))
            #expect(app["file_upload_config"]["size_limit"].int == 10 << 20)
            #expect(app["image_upload_config"]["allowed_mime_types"] == .array([.string("image/png"), .string("image/jpeg")]))
            #expect(app["cdn_expiration_seconds"].int == 604_800)
            #expect(app["strip_image_metadata"] == .bool(false))

            let show = try await FeedsExecutable.run(["app", "show"] + credentials)
            #expect(show.status == 0, "\(show.stderr)")
            #expect(show.stdout == set.stdout)

            // A bad value: the server's message, the field, and a failing exit status; nothing changes.
            let bad = try await FeedsExecutable.run(["app", "set", "--cdn-expiration", "1h"] + credentials)
            #expect(bad.status != 0)
            #expect(bad.stderr.contains("cdn_expiration_seconds"), "\(bad.stderr)")
            #expect(try await server.api(.GET, "/app", as: nil).body["app"]["cdn_expiration_seconds"].int == 604_800)

            let clear = try await FeedsExecutable.run(["app", "set", "--file-blocked-extensions", ""] + credentials)
            #expect(clear.status == 0, "\(clear.stderr)")
            #expect(
                try await server.api(.GET, "/app", as: nil).body["app"]["file_upload_config"]["blocked_file_extensions"]
                    == .array([]))

            // A port held bound and not listening: no concurrent test's server can take it meanwhile.
            let refusing = try ReservedLoopbackPort()
            let unreachable = try await FeedsExecutable.run(
                [
                    "app", "show", "--url", "http://127.0.0.1:\(refusing.port)", "--api-key", "k", "--api-secret",
                    TestServer.apiSecret,
                ])
            refusing.release()
            #expect(unreachable.status != 0)
            #expect(unreachable.stderr.contains("cannot reach the server"), "\(unreachable.stderr)")
        }
    }
}
