import AsyncHTTPClient
import FeedsCore
import FeedsTestSupport
import Foundation
import NIOCore
import PostgresNIO
import Testing

@Suite struct AppSettingsTests {
    static let png = Data(PNGWriter.png(width: 8, height: 8))

    func file(_ name: String, _ data: Data, part: String = "file") -> MultipartForm {
        var form = MultipartForm()
        form.add(part, fileName: name, data)
        return form
    }

    func activity(type: String, _ name: String, _ data: Data) -> MultipartForm {
        var form = MultipartForm()
        form.add(
            "activity",
            json: #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"\#(type)","file":"f"}]}"#)
        form.add("f", fileName: name, data)
        return form
    }

    /// The fields Stream's `AppResponseFields` requires.
    static let requiredFields = [
        "id", "name", "organization", "placement", "push_notifications", "webhook_url", "moderation_webhook_url",
        "channel_configs", "call_types", "policies", "suspended", "suspended_explanation", "disable_auth_checks",
        "disable_permissions_checks", "permission_version", "user_search_disallowed_roles", "multi_tenant_enabled",
        "allow_multi_user_devices", "image_moderation_enabled", "async_url_enrich_enabled", "auto_translation_enabled",
        "custom_action_handler_url", "enforce_unique_usernames", "sqs_url", "sqs_key", "sqs_secret", "sns_topic_arn",
        "sns_key", "sns_secret", "file_upload_config", "image_upload_config", "grants", "campaign_enabled",
        "webhook_events", "reminders_interval", "cdn_expiration_seconds", "moderation_enabled",
        "moderation_multitenant_blocklist_enabled", "guest_user_creation_disabled", "event_hooks", "use_hook_v2",
        "user_response_time_enabled", "moderation_llm_configurability_enabled", "max_aggregated_activities_length",
        "feed_audit_logs_enabled", "moderation_video_call_moderation_enabled", "moderation_audio_call_moderation_enabled",
        "member_custom_on_messages_enabled",
    ]

    @Test func usersAndTheServerReadTheSettingsInStreamsShape() async throws {
        try await TestServer.run { server in
            for caller in ["alice", nil] {
                let reply = try await server.api(.GET, "/app", as: caller)
                #expect(reply.status == 200, "\(reply.text)")
                #expect(reply.body["duration"].string?.hasSuffix("ms") == true)
                let app = reply.body["app"]
                for field in Self.requiredFields { #expect(!app[field].isNull, "app.\(field) is missing") }
                #expect(app["cdn_expiration_seconds"].int == 1_209_600)
                for config in ["file_upload_config", "image_upload_config"] {
                    #expect(app[config]["size_limit"].int == 0)
                    for list in [
                        "allowed_file_extensions", "blocked_file_extensions", "allowed_mime_types", "blocked_mime_types",
                    ] {
                        #expect(app[config][list] == .array([]), "\(config).\(list)")
                    }
                }
                #expect(app["push_notifications"]["apn"]["enabled"] == .bool(false))
            }
        }
    }

    @Test func onlyTheServerChangesThem() async throws {
        try await TestServer.run { server in
            let reply = try await server.api(.PATCH, "/app", as: "alice", json: #"{"cdn_expiration_seconds":14400}"#)
            expectAPIError(reply, status: 403, code: 17)
            #expect(try await server.api(.GET, "/app", as: nil).body["app"]["cdn_expiration_seconds"].int == 1_209_600)
        }
    }

    @Test func whatIsNotSentKeepsItsValueAndListsAreNormalised() async throws {
        try await TestServer.run { server in
            try await server.changeApp(
                #"{"file_upload_config":{"blocked_file_extensions":[".EXE","bat","exe"],"allowed_mime_types":["Text/Plain"],"size_limit":1000}}"#
            )
            try await server.changeApp(
                #"{"file_upload_config":{"allowed_file_extensions":["txt"]},"cdn_expiration_seconds":86400}"#)
            let app = try await server.api(.GET, "/app", as: "alice").body["app"]
            #expect(app["file_upload_config"]["blocked_file_extensions"] == .array([.string("exe"), .string("bat")]))
            #expect(app["file_upload_config"]["allowed_file_extensions"] == .array([.string("txt")]))
            #expect(app["file_upload_config"]["allowed_mime_types"] == .array([.string("text/plain")]))
            #expect(app["file_upload_config"]["size_limit"].int == 1000)
            #expect(app["image_upload_config"]["size_limit"].int == 0)
            #expect(app["cdn_expiration_seconds"].int == 86400)
        }
    }

    static let invalid: [(String, String)] = [
        (#"{"file_upload_config":{"size_limit":-1}}"#, "file_upload_config.size_limit"),
        (#"{"image_upload_config":{"size_limit":104857601}}"#, "image_upload_config.size_limit"),
        (#"{"cdn_expiration_seconds":14399}"#, "cdn_expiration_seconds"),
        (#"{"cdn_expiration_seconds":1209601}"#, "cdn_expiration_seconds"),
        (#"{"file_upload_config":{"blocked_file_extensions":["exe",""]}}"#, "file_upload_config.blocked_file_extensions"),
        (#"{"file_upload_config":{"allowed_file_extensions":["../etc/passwd"]}}"#, "file_upload_config.allowed_file_extensions"),
        (#"{"image_upload_config":{"allowed_file_extensions":["png/x"]}}"#, "image_upload_config.allowed_file_extensions"),
        (#"{"image_upload_config":{"blocked_file_extensions":["."]}}"#, "image_upload_config.blocked_file_extensions"),
        (#"{"file_upload_config":{"allowed_mime_types":["image"]}}"#, "file_upload_config.allowed_mime_types"),
        (#"{"image_upload_config":{"blocked_mime_types":["image/png; q=1"]}}"#, "image_upload_config.blocked_mime_types"),
        (#"{"webhook_url":"https://example.com"}"#, "webhook_url"),
    ]

    @Test(arguments: invalid) func everyInvalidValueIsRefusedNamingItsField(_ json: String, _ field: String) async throws {
        try await TestServer.run { server in
            try await server.changeApp(#"{"file_upload_config":{"blocked_file_extensions":["exe"]}}"#)
            let reply = try await server.api(.PATCH, "/app", as: nil, json: json)
            let body = expectAPIError(reply, status: 400, code: 4)
            #expect(body["exception_fields"][field].string?.isEmpty == false, "\(reply.text)")
            // Nothing of a refused change applies.
            let app = try await server.api(.GET, "/app", as: nil).body["app"]
            #expect(app["file_upload_config"]["blocked_file_extensions"] == .array([.string("exe")]))
            #expect(app["cdn_expiration_seconds"].int == 1_209_600)
            #expect(app["image_upload_config"]["size_limit"].int == 0)
        }
    }

    @Test func fileUploadsObeyTheFileRules() async throws {
        try await TestServer.run { server in
            // Image rules do not touch /uploads/file.
            try await server.changeApp(#"{"image_upload_config":{"blocked_file_extensions":["txt"]}}"#)
            #expect(try await server.upload("/uploads/file", as: "alice", form: file("a.txt", Data("hi\n".utf8))).status == 201)

            try await server.changeApp(#"{"file_upload_config":{"blocked_file_extensions":["exe"]}}"#)
            var reply = try await server.upload("/uploads/file", as: "alice", form: file("Setup.EXE", Data("hi\n".utf8)))
            var body = expectAPIError(reply, status: 400, code: 4)
            #expect(body["message"].string?.contains("file_upload_config.blocked_file_extensions") == true, "\(reply.text)")
            #expect(!body["exception_fields"]["file"].isNull)

            try await server.changeApp(
                #"{"file_upload_config":{"blocked_file_extensions":[],"allowed_file_extensions":["txt"]}}"#)
            #expect(try await server.upload("/uploads/file", as: "alice", form: file("a.txt", Data("hi\n".utf8))).status == 201)
            reply = try await server.upload("/uploads/file", as: "alice", form: file("a.csv", Data("hi\n".utf8)))
            body = expectAPIError(reply, status: 400, code: 4)
            #expect(body["message"].string?.contains("allowed_file_extensions") == true, "\(reply.text)")

            // MIME types come from the bytes: a PNG named .txt is image/png.
            try await server.changeApp(#"{"file_upload_config":{"blocked_mime_types":["image/*"]}}"#)
            reply = try await server.upload("/uploads/file", as: "alice", form: file("a.txt", Self.png))
            body = expectAPIError(reply, status: 400, code: 4)
            #expect(
                body["message"].string?.contains("image/png") == true
                    && body["message"].string?.contains("blocked_mime_types") == true)

            try await server.changeApp(#"{"file_upload_config":{"blocked_mime_types":[],"allowed_mime_types":["text/plain"]}}"#)
            #expect(try await server.upload("/uploads/file", as: "alice", form: file("b.txt", Data("hi\n".utf8))).status == 201)
            reply = try await server.upload("/uploads/file", as: "alice", form: file("b.txt", Data("%PDF-1.4\n%%EOF\n".utf8)))
            body = expectAPIError(reply, status: 400, code: 4)
            #expect(body["message"].string?.contains("allowed_mime_types") == true, "\(reply.text)")
        }
    }

    @Test func imageUploadsObeyTheImageRules() async throws {
        try await TestServer.run { server in
            try await server.changeApp(#"{"file_upload_config":{"blocked_mime_types":["image/png"]}}"#)
            #expect(try await server.upload("/uploads/image", as: "alice", form: file("a.png", Self.png)).status == 201)

            try await server.changeApp(#"{"image_upload_config":{"blocked_mime_types":["image/png"]}}"#)
            var reply = try await server.upload("/uploads/image", as: "alice", form: file("a.png", Self.png))
            var body = expectAPIError(reply, status: 400, code: 4)
            #expect(body["message"].string?.contains("image_upload_config.blocked_mime_types") == true, "\(reply.text)")

            try await server.changeApp(
                #"{"image_upload_config":{"blocked_mime_types":[],"allowed_file_extensions":["jpg"],"blocked_file_extensions":["gif"]}}"#
            )
            reply = try await server.upload("/uploads/image", as: "alice", form: file("a.png", Self.png))
            body = expectAPIError(reply, status: 400, code: 4)
            #expect(body["message"].string?.contains("image_upload_config.allowed_file_extensions") == true, "\(reply.text)")
            reply = try await server.upload("/uploads/image", as: "alice", form: file("a.gif", Self.png))
            body = expectAPIError(reply, status: 400, code: 4)
            #expect(body["message"].string?.contains("image_upload_config.blocked_file_extensions") == true, "\(reply.text)")
            #expect(try await server.upload("/uploads/image", as: "alice", form: file("a.jpg", Self.png)).status == 201)

            try await server.changeApp(
                #"{"image_upload_config":{"allowed_file_extensions":[],"blocked_file_extensions":[],"allowed_mime_types":["image/jpeg"]}}"#
            )
            reply = try await server.upload("/uploads/image", as: "alice", form: file("a.png", Self.png))
            body = expectAPIError(reply, status: 400, code: 4)
            #expect(body["message"].string?.contains("image_upload_config.allowed_mime_types") == true, "\(reply.text)")
        }
    }

    @Test func attachmentUploadsObeyTheRulesOfTheirType() async throws {
        try await TestServer.run { server in
            try await server.changeApp(
                #"{"file_upload_config":{"blocked_file_extensions":["txt"]},"image_upload_config":{"blocked_mime_types":["image/png"]}}"#
            )
            var reply = try await server.upload(
                "/feeds/activities", as: "alice", form: activity(type: "file", "n.txt", Data("hi\n".utf8)))
            var body = expectAPIError(reply, status: 400, code: 4)
            #expect(body["message"].string?.contains("file_upload_config.blocked_file_extensions") == true, "\(reply.text)")
            #expect(!body["exception_fields"]["attachment_uploads[0]"].isNull)

            reply = try await server.upload("/feeds/activities", as: "alice", form: activity(type: "image", "p.png", Self.png))
            body = expectAPIError(reply, status: 400, code: 4)
            #expect(body["message"].string?.contains("image_upload_config.blocked_mime_types") == true, "\(reply.text)")

            // A PNG sent as a file attachment goes by the file rules.
            #expect(
                try await server.upload("/feeds/activities", as: "alice", form: activity(type: "file", "p.png", Self.png)).status
                    == 201)

            // Refusals leave nothing: one activity and one object in all.
            let rows = try await server.database.query(
                "SELECT (SELECT count(*) FROM activities), (SELECT count(*) FROM cdn_objects)", logger: TestDatabase.logger)
            for try await (activities, objects) in rows.decode((Int, Int).self) {
                #expect(activities == 1 && objects == 1)
            }
            #expect(
                server.uploadTempFiles.isEmpty)
        }
    }

    @Test func theSizeLimitIsExactOnEveryPath() async throws {
        try await TestServer.run { server in
            let image = Self.png + Data(repeating: 0, count: 100)  // bytes after IEND: still a PNG
            try await server.changeApp(
                #"{"file_upload_config":{"size_limit":1000},"image_upload_config":{"size_limit":\#(image.count)}}"#)
            let exact = Data(repeating: 65, count: 1000)
            let over = Data(repeating: 65, count: 1001)
            let bigImage = image + Data([0])

            #expect(try await server.upload("/uploads/file", as: "alice", form: file("a.txt", exact)).status == 201)
            expectAPIError(
                try await server.upload("/uploads/file", as: "alice", form: file("a.txt", over)), status: 413, code: 22)
            #expect(try await server.upload("/uploads/image", as: "alice", form: file("a.png", image)).status == 201)
            expectAPIError(
                try await server.upload("/uploads/image", as: "alice", form: file("a.png", bigImage)), status: 413, code: 22)

            #expect(
                try await server.upload("/feeds/activities", as: "alice", form: activity(type: "file", "a.txt", exact)).status
                    == 201)
            let refused = try await server.upload("/feeds/activities", as: "alice", form: activity(type: "file", "a.txt", over))
            let body = expectAPIError(refused, status: 413, code: 22)
            #expect(body["message"].string?.contains("file_upload_config.size_limit") == true, "\(refused.text)")
            #expect(
                try await server.upload("/feeds/activities", as: "alice", form: activity(type: "image", "a.png", image)).status
                    == 201)
            expectAPIError(
                try await server.upload("/feeds/activities", as: "alice", form: activity(type: "image", "a.png", bigImage)),
                status: 413, code: 22)
        }
    }

    @Test func newURLsUseTheCurrentLifetime() async throws {
        try await TestServer.run { server in
            try await server.changeApp(#"{"cdn_expiration_seconds":14400}"#)
            // The URL was signed between these two moments, however long the request took.
            let before = Date.now.timeIntervalSince1970.rounded(.down)
            let reply = try await server.upload("/uploads/file", as: "alice", form: file("a.txt", Data("hi\n".utf8)))
            let after = Date.now.timeIntervalSince1970.rounded(.up)
            let link = try #require(reply.body["file"].string)
            let url = try #require(URLComponents(string: link))
            let expires = try #require(url.queryItems?.first { $0.name == "Expires" }?.value.flatMap(Double.init))
            #expect((before + 14400...after + 14400).contains(expires), "\(expires) not in \(before)...\(after) + 14400")
        }
    }

    /// A rule change applies to uploads that start after it; one in progress finishes under the
    /// rules it started with.
    @Test func anUploadInProgressFinishesUnderItsRules() async throws {
        try await TestServer.run { server in
            let form = file("slow.txt", Data(repeating: 65, count: 256 * 1024))
            let whole = form.data
            let (chunks, feed) = AsyncStream<ByteBuffer>.makeStream()
            var request = HTTPClientRequest(url: "\(server.baseURL)/api/v2/uploads/file?api_key=\(server.apiKey)")
            request.method = .POST
            request.headers.add(name: "Stream-Auth-Type", value: "jwt")
            request.headers.add(name: "Authorization", value: try await server.token("alice"))
            request.headers.add(name: "Content-Type", value: form.contentType)
            request.body = .stream(chunks, length: .known(Int64(whole.count)))
            async let response = HTTPClient.shared.execute(request, timeout: .seconds(30))
            feed.yield(ByteBuffer(bytes: whole.prefix(whole.count / 2)))
            // Once the part is streaming to a temp file, the handler has taken its rules.
            try await eventually("the upload reaching the server") { !server.uploadTempFiles.isEmpty }
            try await server.changeApp(#"{"file_upload_config":{"blocked_file_extensions":["txt"]}}"#)
            feed.yield(ByteBuffer(bytes: whole.dropFirst(whole.count / 2)))
            feed.finish()
            #expect(try await response.status.code == 201)

            let after = try await server.upload("/uploads/file", as: "alice", form: file("late.txt", Data("hi\n".utf8)))
            expectAPIError(after, status: 400, code: 4)
        }
    }
}
