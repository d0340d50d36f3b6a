import FeedsPostgres
import FeedsTestSupport
import Foundation
import Testing

/// Two server processes on one database: a session opened on one node is accepted by the other
/// and ended on both by one sign-out, and rules saved in one node's console are enforced by the
/// other by notification (it reloads on its own only once an hour here). Waits are hang guards.
@Suite struct AdminAcrossNodesTests {
    @Test func sessionsAndSavedRulesHoldOnEveryNode() async throws {
        try await TestServer.run(configure: { $0.settingsRefreshInterval = .seconds(3600) }) { server in
            let other = try await FeedsNode(
                databaseURL: server.databaseURL, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
                port: try freeLoopbackPort(), environment: ["FEEDS_SETTINGS_REFRESH": "3600"])
            defer { other.stop() }
            let here = try await AdminClient(server).signedIn()
            let cookie = ("Cookie", "feeds_admin_session=\(try #require(here.cookies["feeds_admin_session"]))")

            let otherPage = try await TestServer.send(
                .GET, "\(other.baseURL)/admin/rules", headers: [cookie], followRedirects: false)
            #expect(otherPage.status == 200, "the other node accepts the session")

            // The other node's own form, saved there; this node enforces it.
            let rules = AdminRulesTests()
            var fields = [("csrf", try here.csrf(in: otherPage)), ("version", try rules.value(of: "version", in: otherPage))]
            for name in AdminRulesTests.fieldNames {
                let blocked = name == "file_upload_config.blocked_file_extensions"
                fields.append((name, blocked ? "exe" : try rules.value(of: name, in: otherPage)))
            }
            let saved = try await TestServer.send(
                .POST, "\(other.baseURL)/admin/rules", body: Data(AdminClient.encode(fields).utf8),
                headers: [cookie, ("Content-Type", "application/x-www-form-urlencoded")], followRedirects: false)
            #expect(saved.status == 303, "\(saved.text)")
            var exe = MultipartForm()
            exe.add("file", fileName: "setup.exe", Data("MZ\n".utf8))
            let form = exe
            try await eventually("this node refusing .exe") {
                try await server.upload("/uploads/file", as: "alice", form: form).status == 400
            }

            // Signing out here ends the session there too.
            #expect(try await here.post("/admin/sign-out", [("csrf", try await here.sessionCSRF())]).status == 303)
            let after = try await TestServer.send(.GET, "\(other.baseURL)/admin/rules", headers: [cookie], followRedirects: false)
            #expect(after.status == 303)
        }
    }
}
