import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// The upload rules page: what it saves reaches the API and the audit list; what the API would
/// refuse, it refuses with the API's words, keeps as typed, and saves nothing.
@Suite struct AdminRulesTests {
    /// The rules form as the page fills it, with `changes` made.
    func form(_ client: AdminClient, _ changes: [String: String] = [:]) async throws -> [(String, String)] {
        let page = try await client.get("/admin/rules")
        #expect(page.status == 200)
        var fields = [("csrf", try client.csrf(in: page)), ("version", try value(of: "version", in: page))]
        for name in Self.fieldNames { fields.append((name, try changes[name] ?? value(of: name, in: page))) }
        return fields
    }

    static let fieldNames =
        ["file_upload_config", "image_upload_config"].flatMap { config in
            ["allowed_file_extensions", "blocked_file_extensions", "allowed_mime_types", "blocked_mime_types", "size_limit"]
                .map { "\(config).\($0)" }
        } + ["cdn_expiration_seconds", "strip_image_metadata"]

    /// An input's value attribute, unescaped; a select's selected option.
    func value(of name: String, in page: TestServer.Reply) throws -> String {
        if let select = page.text.range(of: "<select id=\"\(name)\" name=\"\(name)\">") {
            let options = page.text[select.upperBound...]
            let selected = try #require(options.range(of: "\" selected>"), "nothing selected in \(name)")
            let quote = try #require(options[..<selected.lowerBound].lastIndex(of: "\""))
            return String(options[options.index(after: quote)..<selected.lowerBound])
        }
        let marker = "name=\"\(name)\" value=\""
        let start = try #require(page.text.range(of: marker), "no field \(name)").upperBound
        return String(page.text[start...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }

    func version(_ server: TestServer) async throws -> Int {
        try await server.number("SELECT version::int FROM app_settings")
    }

    @Test func aSavedChangeReachesTheAPIAndTheAuditList() async throws {
        try await TestServer.run { server in
            let client = try await AdminClient(server).signedIn()
            let fields = try await form(
                client, ["file_upload_config.blocked_file_extensions": ".EXE, bat\nexe", "cdn_expiration_seconds": "86400"])
            let reply = try await client.post("/admin/rules", fields)
            #expect(reply.status == 303, "\(reply.text)")
            #expect(reply.location == "/admin/rules?saved=2")
            let app = try await server.api(.GET, "/app", as: "alice").body["app"]
            #expect(app["file_upload_config"]["blocked_file_extensions"] == .array([.string("exe"), .string("bat")]))
            #expect(app["cdn_expiration_seconds"].int == 86400)

            try await server.changeApp(#"{"image_upload_config":{"size_limit":1000}}"#)
            let page = try await client.get("/admin/rules")
            #expect(page.text.contains("file_upload_config.blocked_file_extensions: none → exe, bat"))
            #expect(page.text.contains("cdn_expiration_seconds: 1209600 → 86400"))
            #expect(page.text.contains("console, signed in with the api secret"))
            #expect(page.text.contains("image_upload_config.size_limit: 0 → 1000"))
            #expect(page.text.contains("API, server token"))
            #expect(try value(of: "image_upload_config.size_limit", in: page) == "1000")
            // Photo metadata is a choice of two; another value is refused with the field named.
            #expect(try value(of: "strip_image_metadata", in: page) == "on")
            let keep = try await client.post("/admin/rules", try await form(client, ["strip_image_metadata": "off"]))
            #expect(keep.status == 303, "\(keep.text)")
            #expect(try await server.api(.GET, "/app", as: "alice").body["app"]["strip_image_metadata"] == .bool(false))
            let kept = try await client.get("/admin/rules")
            #expect(kept.text.contains("strip_image_metadata: true → false"))
            #expect(try value(of: "strip_image_metadata", in: kept) == "off")
            let odd = try await client.post("/admin/rules", try await form(client, ["strip_image_metadata": "maybe"]))
            #expect(odd.status == 400 && odd.text.contains("strip_image_metadata is on or off"), "\(odd.text.prefix(300))")
            // Saving the form as it is changes nothing, and writes no audit line.
            #expect(try await client.post("/admin/rules", try await form(client)).location == "/admin/rules?unchanged=1")
            #expect(try await server.number("SELECT count(*)::int FROM app_settings_audit") == 3)
        }
    }

    @Test(arguments: [
        ("file_upload_config.blocked_file_extensions", "exe, ../etc", #"&quot;../etc&quot; is not a file extension"#),
        ("image_upload_config.allowed_mime_types", "image", #"&quot;image&quot; is not a MIME type of the form type/subtype"#),
        ("file_upload_config.size_limit", "104857601", "size_limit must be between 0 (the default, 100 MB) and 104857600 bytes"),
        ("file_upload_config.size_limit", "a lot", "size_limit must be between 0"),
        ("image_upload_config.size_limit", "99999999999999999999999", "size_limit must be between 0"),
        ("cdn_expiration_seconds", "60", "cdn_expiration_seconds must be between 14400 (4 hours) and 1209600 (14 days)"),
        (
            "file_upload_config.allowed_file_extensions",
            Array(repeating: "a", count: 300).enumerated().map { "e\($0.offset)" }.joined(separator: ","), "at most 256 entries"
        ),
    ])
    func aBadValueSaysWhichFieldAndWhyAndSavesNothing(field: String, typed: String, message: String) async throws {
        try await TestServer.run { server in
            let client = try await AdminClient(server).signedIn()
            let before = try await version(server)
            let fields = try await form(client, [field: typed, "file_upload_config.allowed_mime_types": "text/plain"])
            let reply = try await client.post("/admin/rules", fields)
            #expect(reply.status == 400, "\(reply.text)")
            #expect(reply.text.contains("\(field): "), "the field is named")
            #expect(reply.text.contains(message), "\(reply.text)")
            #expect(
                reply.text.contains(
                    #"name="\#(field)" value="\#(typed)" aria-invalid="true""#))
            #expect(try value(of: "file_upload_config.allowed_mime_types", in: reply) == "text/plain", "what was typed stays")
            #expect(try await version(server) == before)
            #expect(
                try await server.api(.GET, "/app", as: nil).body["app"]["file_upload_config"]["allowed_mime_types"] == .array([]))
        }
    }

    @Test func typedMarkupIsShownAsText() async throws {
        try await TestServer.run { server in
            let client = try await AdminClient(server).signedIn()
            let hostile = #""><script>alert(1)</script><img src=x onerror=alert(2)>"#
            let reply = try await client.post(
                "/admin/rules", try await form(client, ["file_upload_config.blocked_mime_types": hostile]))
            #expect(reply.status == 400)
            #expect(!reply.text.contains("<script>") && !reply.text.contains("<img src=x"))
            #expect(reply.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(reply.text.contains("&quot;&gt;&lt;script&gt;"))
        }
    }

    @Test func hostileFormsAreRefusedWhole() async throws {
        try await TestServer.run { server in
            let client = try await AdminClient(server).signedIn()
            let fields = try await form(client)
            let encoded = AdminClient.encode(fields)
            let before = try await version(server)
            let cases: [(String, String, Int)] = [
                ("a field twice", encoded + "&file_upload_config.size_limit=5", 400),
                ("a field missing", AdminClient.encode(fields.filter { $0.0 != "cdn_expiration_seconds" }), 400),
                ("bad percent-encoding", encoded + "&x=%zz", 400),
                ("truncated percent-encoding", encoded + "&x=%4", 400),
                ("not UTF-8", encoded + "&x=%ff%fe", 400),
                ("a NUL", encoded + "&x=a%00b", 400),
                ("over 64 KB", encoded + "&x=" + String(repeating: "a", count: 70_000), 413),
                ("a version that is not a number", encoded.replacingOccurrences(of: "version=", with: "version=x"), 400),
            ]
            for (what, body, status) in cases {
                let reply = try await client.postRaw("/admin/rules", body)
                #expect(reply.status == status, "\(what): \(reply.status) \(reply.text.suffix(300))")
                #expect(reply.headers.first(name: "content-type")?.hasPrefix("text/html") == true, "\(what)")
            }
            let json = try await client.postRaw("/admin/rules", "{}", contentType: "application/json")
            #expect(json.status == 415)
            #expect(try await version(server) == before)
        }
    }

    @Test func aFormPostedWithAnotherSessionsTokenChangesNothing() async throws {
        try await TestServer.run { server in
            let mine = try await AdminClient(server).signedIn()
            let theirs = try await AdminClient(server).signedIn()
            var fields = try await form(mine, ["file_upload_config.blocked_file_extensions": "exe"])
            fields[0].1 = try await theirs.sessionCSRF()
            let reply = try await mine.post("/admin/rules", fields)
            #expect(reply.status == 403)
            #expect(reply.text.contains("CSRF"))
            fields.removeFirst()
            #expect(try await mine.post("/admin/rules", fields).status == 403)
            #expect(try await version(server) == 1)
        }
    }

    @Test func aFormFilledBeforeAnotherChangeDoesNotWriteOverIt() async throws {
        try await TestServer.run { server in
            let client = try await AdminClient(server).signedIn()
            let fields = try await form(client, ["file_upload_config.blocked_file_extensions": "exe"])
            try await server.changeApp(#"{"file_upload_config":{"blocked_file_extensions":["bat"]}}"#)
            let reply = try await client.post("/admin/rules", fields)
            #expect(reply.status == 409, "\(reply.text)")
            #expect(reply.text.contains("changed meanwhile"))
            let app = try await server.api(.GET, "/app", as: nil).body["app"]
            #expect(app["file_upload_config"]["blocked_file_extensions"] == .array([.string("bat")]))
            // The form comes back as typed, now on the current version: saving again is deliberate.
            #expect(try value(of: "file_upload_config.blocked_file_extensions", in: reply) == "exe")
            let again = try await client.post(
                "/admin/rules",
                [("csrf", try client.csrf(in: reply)), ("version", try value(of: "version", in: reply))]
                    + Self.fieldNames.map { ($0, try value(of: $0, in: reply)) })
            #expect(again.status == 303)
        }
    }
}
