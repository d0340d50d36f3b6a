import FeedsCore
import FeedsHTTP
import FeedsTestSupport
import Foundation
import Synchronization
import Testing

/// The console's door: nothing without a session, sessions that end, forms that only their own
/// session may post, and sign-ins that slow down when wrong without barring anyone.
@Suite struct AdminSignInTests {
    static let pages = ["/admin", "/admin/rules", "/admin/uploads", "/admin/storage", "/admin/no/such/page"]
    static let forms = ["/admin/rules", "/admin/uploads/delete", "/admin/storage/gc", "/admin/sign-out"]

    @Test func nothingIsReachableWithoutSigningIn() async throws {
        try await TestServer.run { server in
            let client = AdminClient(server)
            for page in Self.pages {
                let reply = try await client.get(page)
                #expect(reply.status == 303, "\(page)")
                #expect(reply.location?.hasPrefix("/admin/sign-in") == true, "\(page): \(reply.location ?? "-")")
                #expect(!reply.text.contains("<table"), "\(page)")
            }
            // A made-up session cookie is no session.
            client.cookies["feeds_admin_session"] = "made-up"
            for form in Self.forms {
                let reply = try await client.post(form, [("csrf", "x"), ("key", "x")])
                #expect(reply.status == 303 && reply.location == "/admin/sign-in", "\(form): \(reply.status)")
            }
            #expect(try await server.number("SELECT count(*)::int FROM gc_runs WHERE trigger = 'console'") == 0)
            #expect(try await server.number("SELECT count(*)::int FROM app_settings_audit") == 0)
        }
    }

    @Test func everyAnswerForbidsFramingScriptsAndCaching() async throws {
        try await TestServer.run { server in
            let client = AdminClient(server)
            for path in ["/admin/sign-in", "/admin/rules", "/admin/admin.css"] {
                let reply = try await client.get(path)
                let policy = reply.headers.first(name: "content-security-policy") ?? ""
                #expect(policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'"), "\(path): \(policy)")
                #expect(!policy.contains("script-src"), "\(path)")
                #expect(reply.headers.first(name: "x-frame-options") == "DENY", "\(path)")
                #expect(reply.headers.first(name: "x-content-type-options") == "nosniff", "\(path)")
                #expect(reply.headers.first(name: "cache-control") == "no-store", "\(path)")
            }
        }
    }

    @Test func theKeyWithTheSecretOrAServerTokenSignsIn() async throws {
        try await TestServer.run { server in
            let withSecret = AdminClient(server)
            let reply = try await withSecret.signIn(next: "/admin/uploads")
            #expect(reply.status == 303 && reply.location == "/admin/uploads")
            let cookie = try #require(reply.headers[canonicalForm: "set-cookie"].first { $0.hasPrefix("feeds_admin_session=") })
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/admin", "Max-Age="] {
                #expect(cookie.contains(attribute), "\(cookie)")
            }
            #expect(!cookie.contains("Secure"), "plain HTTP here: \(cookie)")
            #expect(try await withSecret.get("/admin/rules").status == 200)
            let missing = try await withSecret.get("/admin/no/such/page")
            #expect(missing.status == 404 && missing.text.contains("There is no such page."))

            let withToken = AdminClient(server)
            let token = try await server.token(nil)
            #expect(try await withToken.signIn(secret: "", token: token).status == 303)
            #expect(try await withToken.get("/admin/storage").status == 200)
            let audit = try await server.number("SELECT count(*)::int FROM admin_sessions WHERE credential = 'server token'")
            #expect(audit == 1)
        }
    }

    @Test func wrongCredentialsAreRefusedAndSayNothingMore() async throws {
        let clock = ManualAdminClock()
        try await TestServer.run(configure: {
            $0.admin.clock = clock
            $0.admin.pause = { _ in }
        }) { server in
            let userToken = try await server.token("alice")
            let cases: [(String, String, String)] = [
                (TestServer.apiKey, "wrong-secret", ""), ("wrong-key", TestServer.apiSecret, ""),
                (TestServer.apiKey, TestServer.apiSecret + "x", ""), (TestServer.apiKey, "", userToken),
                (TestServer.apiKey, "", "not.a.token"), (TestServer.apiKey, "", ""), ("", "", ""),
            ]
            for (key, secret, token) in cases {
                let client = AdminClient(server)
                let reply = try await client.signIn(key: key, secret: secret, token: token)
                #expect(reply.status == 401, "\(key)/\(secret)/\(token.prefix(8)): \(reply.status)")
                #expect(reply.text.contains("not this app&#39;s credentials"))
                #expect(client.cookies["feeds_admin_session"] == nil)
                #expect(try await client.get("/admin/rules").status == 303)
                clock.advance(by: 10)
            }
        }
    }

    @Test func theSignInFormRefusesAPostWithoutItsOwnToken() async throws {
        try await TestServer.run { server in
            let client = AdminClient(server)
            _ = try await client.get("/admin/sign-in")
            let fields = [("api_key", TestServer.apiKey), ("api_secret", TestServer.apiSecret)]
            for csrf in [nil, "", "forged"] {
                let reply = try await client.post("/admin/sign-in", fields + (csrf.map { [("csrf", $0)] } ?? []))
                #expect(reply.status == 403, "\(csrf ?? "none")")
                #expect(client.cookies["feeds_admin_session"] == nil)
            }
            // The token of the form, without the cookie that goes with it (another site's post).
            let other = AdminClient(server)
            let token = try other.csrf(in: try await other.get("/admin/sign-in"))
            other.cookies = [:]
            #expect(try await other.post("/admin/sign-in", fields + [("csrf", token)]).status == 403)
        }
    }

    @Test func nextGoesOnlyToAPageOfTheConsole() async throws {
        try await TestServer.run { server in
            let hostile = [
                "https://evil.example/", "//evil.example/admin/rules", "/\\evil.example", "/admin/rules/../../x",
                "/admin/rules?x=1", "javascript:alert(1)", "/api/v2/app", " /admin/uploads",
            ]
            for next in hostile {
                let client = AdminClient(server)
                let reply = try await client.signIn(next: next)
                #expect(reply.status == 303 && reply.location == "/admin/rules", "\(next) → \(reply.location ?? "-")")
                let form = try await client.get("/admin/sign-in?next=\(queryEncoded(next))")
                #expect(form.location == "/admin/rules", "signed in, \(next) → \(form.location ?? "-")")
            }
            let client = AdminClient(server)
            #expect(try await client.signIn(next: "/admin/storage").location == "/admin/storage")
        }
    }

    @Test func signingInNeverKeepsACookieTheBrowserAlreadyHad() async throws {
        try await TestServer.run { server in
            // A value the attacker planted in the victim's browser is never promoted to a session.
            let victim = AdminClient(server)
            victim.cookies["feeds_admin_session"] = "chosen-by-the-attacker"
            #expect(try await victim.signIn().status == 303)
            #expect(victim.cookies["feeds_admin_session"] != "chosen-by-the-attacker")
            let attacker = AdminClient(server)
            attacker.cookies["feeds_admin_session"] = "chosen-by-the-attacker"
            #expect(try await attacker.get("/admin/rules").status == 303)

            // A live session whose cookie comes with a new sign-in is ended, not kept.
            let admin = try await AdminClient(server).signedIn()
            let old = try #require(admin.cookies["feeds_admin_session"])
            let formPage = AdminClient(server)
            let token = try formPage.csrf(in: try await formPage.get("/admin/sign-in"))
            admin.cookies["feeds_admin_sign_in"] = formPage.cookies["feeds_admin_sign_in"]
            let reply = try await admin.post(
                "/admin/sign-in", [("csrf", token), ("api_key", TestServer.apiKey), ("api_secret", TestServer.apiSecret)])
            #expect(reply.status == 303)
            #expect(admin.cookies["feeds_admin_session"] != old)
            let replay = AdminClient(server)
            replay.cookies["feeds_admin_session"] = old
            #expect(try await replay.get("/admin/rules").status == 303)
        }
    }

    @Test func signingOutEndsTheSessionEverywhere() async throws {
        try await TestServer.run { server in
            let client = try await AdminClient(server).signedIn()
            let cookie = try #require(client.cookies["feeds_admin_session"])
            let csrf = try await client.sessionCSRF()
            // Another site cannot sign the admin out either.
            #expect(try await client.post("/admin/sign-out", [("csrf", "forged")]).status == 403)
            #expect(try await client.get("/admin/rules").status == 200)
            let reply = try await client.post("/admin/sign-out", [("csrf", csrf)])
            #expect(reply.status == 303 && reply.location == "/admin/sign-in")
            #expect(client.cookies["feeds_admin_session"] == nil)
            // The cookie kept by someone else (a copy) is dead too.
            let replay = AdminClient(server)
            replay.cookies["feeds_admin_session"] = cookie
            #expect(try await replay.get("/admin/rules").status == 303)
            #expect(try await server.number("SELECT count(*)::int FROM admin_sessions") == 0)
        }
    }

    @Test func sessionsEndWhenIdleAndAtTheirLifetime() async throws {
        let clock = ManualAdminClock()
        try await TestServer.run(configure: { $0.admin.clock = clock }) { server in
            let idle = try await AdminClient(server).signedIn()
            clock.advance(by: 29 * 60)
            #expect(try await idle.get("/admin/rules").status == 200)
            clock.advance(by: 29 * 60)  // seen 29 minutes ago: still in
            #expect(try await idle.get("/admin/rules").status == 200)
            clock.advance(by: 31 * 60)
            let reply = try await idle.get("/admin/rules")
            #expect(reply.status == 303 && reply.location == "/admin/sign-in?next=/admin/rules")

            let busy = try await AdminClient(server).signedIn()
            #expect(
                try await server.number("SELECT count(*)::int FROM admin_sessions") == 1,
                "a sign-in clears sessions that are over")
            for _ in 0..<24 {
                clock.advance(by: 29 * 60)
                #expect(try await busy.get("/admin/storage").status == 200)
            }
            clock.advance(by: 29 * 60)  // past 12 h after signing in, however busy
            #expect(try await busy.get("/admin/storage").status == 303)
        }
    }

    @Test func wrongSignInsWaitLongerEachTimeButNeverBarTheAdmin() async throws {
        let waits = Mutex<[Duration]>([])
        let clock = ManualAdminClock()
        try await TestServer.run(configure: {
            $0.admin.clock = clock
            $0.admin.pause = { wait in waits.withLock { $0.append(wait) } }
        }) { server in
            for attempt in 0..<7 {
                // A header naming another address changes nothing: the server writes the peer's own,
                // whatever the spelling of the path (`//admin/...` once reached sign-in without it).
                let client = AdminClient(server)
                let form = try await client.get("/admin/sign-in")
                let reply = try await client.post(
                    attempt.isMultiple(of: 2) ? "/admin/sign-in" : "//admin//sign-in",
                    [("csrf", try client.csrf(in: form)), ("api_key", TestServer.apiKey), ("api_secret", "guess")],
                    headers: [("feeds-peer-address", UUID().uuidString)])
                #expect(reply.status == 401)
                clock.advance(by: 10)  // each wait over before the next attempt
            }
            #expect(waits.withLock { $0 } == [0.5, 1, 2, 4, 8, 8].map { Duration.milliseconds(Int($0 * 1000)) })
            // The admin still gets in (after the same wait), and that clears the slow-down.
            #expect(try await AdminClient(server).signIn().status == 303)
            waits.withLock { $0 = [] }
            #expect(try await AdminClient(server).signIn(secret: "guess").status == 401)
            #expect(waits.withLock { $0 }.isEmpty)
        }
    }
}
