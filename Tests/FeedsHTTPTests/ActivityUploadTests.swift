import FeedsCDN
import FeedsCore
import FeedsHTTP
import FeedsPostgres
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

@testable import FeedsServer

@Suite struct ActivityUploadTests {
    static let png = Data(PNGWriter.png(width: 30, height: 20))

    func activityForm(_ json: String, files: [(String, String, Data)]) -> MultipartForm {
        var form = MultipartForm()
        form.add("activity", json: json)
        for (part, name, data) in files { form.add(part, fileName: name, data) }
        return form
    }

    @Test(arguments: Backend.allCases) func filesSentWithAnActivityFollowItsAttachmentsInOrder(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let form = activityForm(
                #"""
                {"type":"post","feeds":["user:alice"],"text":"look",
                 "attachments":[{"type":"link","title_link":"https://example.com","custom":{}}],
                 "attachment_uploads":[{"type":"file","file":"notes"},{"type":"image","file":"pic","title":"Sunset","custom":{"k":"v"}}]}
                """#,
                files: [("pic", "sunset.png", Self.png), ("notes", "notes.txt", Data("some notes\n".utf8))]
            )
            let reply = try await server.upload("/feeds/activities", as: "alice", form: form)
            #expect(reply.status == 201, "\(reply.text)")
            let attachments = reply.body["activity"]["attachments"].array
            #expect(attachments.count == 3)
            #expect(attachments[0]["type"].string == "link")
            #expect(attachments[1]["type"].string == "file")
            #expect(attachments[1]["title"].string == "notes.txt")
            #expect(attachments[1]["mime_type"].string == "text/plain")
            #expect(attachments[1]["file_size"].int == 11)
            #expect(attachments[1]["image_url"].isNull)
            #expect(attachments[2]["title"].string == "Sunset")
            #expect(attachments[2]["mime_type"].string == "image/png")
            #expect(attachments[2]["original_width"].int == 30 && attachments[2]["original_height"].int == 20)
            #expect(attachments[2]["custom"]["k"].string == "v")
            let imageURL = try #require(attachments[2]["image_url"].string)
            #expect(attachments[2]["thumb_url"].string != nil)
            #expect(try await server.fetch(imageURL).status == 200)
            #expect(try await server.fetch(try #require(attachments[1]["asset_url"].string)).text == "some notes\n")

            // Read again later: URLs are signed afresh, objects are attached.
            let id = try #require(reply.body["activity"]["id"].string)
            let again = try await server.api(.GET, "/feeds/activities/\(id)", as: "bob")
            #expect(again.body["activity"]["attachments"].array.count == 3)
            let rows = try await server.database.query("SELECT state FROM cdn_objects", logger: TestDatabase.logger)
            for try await state in rows.decode(String.self) { #expect(state == "attached") }
        }
    }

    @Test(arguments: Backend.allCases) func aDeletedFileDisappearsFromItsActivity(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let form = activityForm(
                #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"image","file":"pic"}]}"#,
                files: [("pic", "p.png", Self.png)]
            )
            let activity = try await server.upload("/feeds/activities", as: "alice", form: form).body["activity"]
            let url = try #require(activity["attachments"][0]["image_url"].string)
            let query = "&url=\(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            #expect(try await server.api(.DELETE, "/uploads/image", as: "alice", query: query).status == 200)
            let again = try await server.api(.GET, "/feeds/activities/\(try #require(activity["id"].string))", as: "alice")
            #expect(again.body["activity"]["attachments"] == .array([]))
        }
    }

    @Test(arguments: Backend.allCases) func aJSONActivityLinksAnEarlierUploadOfItsOwner(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            var upload = MultipartForm()
            upload.add("file", fileName: "p.png", Self.png)
            let url = try #require(try await server.upload("/uploads/image", as: "alice", form: upload).body["file"].string)
            let stolen = try await server.api(
                .POST, "/feeds/activities", as: "bob",
                json: #"{"type":"post","feeds":["user:bob"],"attachments":[{"type":"image","image_url":"\#(url)","custom":{}}]}"#
            )
            expectAPIError(stolen, status: 403, code: 17)
            let reply = try await server.api(
                .POST, "/feeds/activities", as: "alice",
                json:
                    #"{"type":"post","feeds":["user:alice"],"attachments":[{"type":"image","image_url":"\#(url)","custom":{}}]}"#
            )
            #expect(reply.status == 201, "\(reply.text)")
            #expect(reply.body["activity"]["attachments"][0]["mime_type"].string == "image/png")
            let rows = try await server.database.query("SELECT state FROM cdn_objects", logger: TestDatabase.logger)
            for try await state in rows.decode(String.self) { #expect(state == "attached") }
        }
    }

    @Test(
        arguments: Backend.allCases,
        [
            (#"{"type":"post","feeds":["user:a"],"attachment_uploads":[{"type":"file","file":"missing"}]}"#, [("doc", "d.txt")]),
            (
                #"{"type":"post","feeds":["user:a"],"attachment_uploads":[{"type":"file","file":"doc"}]}"#,
                [("doc", "d.txt"), ("stray", "s.txt")]
            ),
            (#"{"type":"post","feeds":["user:a"],"attachment_uploads":[{"type":"image","file":"doc"}]}"#, [("doc", "d.txt")]),
            (
                #"{"type":"post","feeds":["user:a"],"attachment_uploads":[\#((0..<11).map { #"{"type":"file","file":"f\#($0)"}"# }.joined(separator: ","))]}"#,
                (0..<11).map { ("f\($0)", "f\($0).txt") }
            ),
            (#"{"feeds":["user:a"],"attachment_uploads":[{"type":"file","file":"doc"}]}"#, [("doc", "d.txt")]),
        ])
    func badMultipartActivitiesAreRefusedLeavingNothing(backend: Backend, request: (json: String, parts: [(String, String)]))
        async throws
    {
        let (json, parts) = request
        try await TestServer.run(backend: backend) { server in
            let form = activityForm(json, files: parts.map { ($0.0, $0.1, Data("text\n".utf8)) })
            let reply = try await server.upload("/feeds/activities", as: "a", form: form)
            expectAPIError(reply, status: 400, code: 4)
            try await expectNothingStored(server)
        }
    }

    @Test(arguments: Backend.allCases) func whenTheActivityCannotBeWrittenItsFilesAreDeleted(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            try await server.addActivity(as: "alice", extra: #""id":"taken""#)
            let form = activityForm(
                #"{"id":"taken","type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"image","file":"pic"}]}"#,
                files: [("pic", "p.png", Self.png)]
            )
            expectAPIError(try await server.upload("/feeds/activities", as: "alice", form: form), status: 409, code: 4)
            try await expectNothingStored(server, activities: 1)
        }
    }

    @Test(arguments: Backend.allCases) func aStoreThatFailsMidBatchIs502AndLeavesNothing(backend: Backend) async throws {
        try await TestServer.run(backend: backend, cdn: { FailingCDN(wrapping: $0, failOnUpload: 2) }) { server in
            let form = activityForm(
                #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"file","file":"a"},{"type":"file","file":"b"},{"type":"file","file":"c"}]}"#,
                files: [("a", "a.txt", Data("a\n".utf8)), ("b", "b.txt", Data("b\n".utf8)), ("c", "c.txt", Data("c\n".utf8))]
            )
            expectAPIError(try await server.upload("/feeds/activities", as: "alice", form: form), status: 502, code: -1)
            try await expectNothingStored(server, activities: 0)
        }
    }

    @Test(arguments: Backend.allCases) func aFileOverTheLimitIs413AndLeavesNothing(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            try await server.changeApp(#"{"file_upload_config":{"size_limit":65536}}"#)
            var form = MultipartForm()
            form.add("file", fileName: "big.bin", Data(repeating: 7, count: 64 * 1024 + 1))
            expectAPIError(try await server.upload("/uploads/file", as: "alice", form: form), status: 413, code: 22)
            var exact = MultipartForm()
            exact.add("file", fileName: "ok.bin", Data(repeating: 7, count: 64 * 1024))
            #expect(try await server.upload("/uploads/file", as: "alice", form: exact).status == 201)
            let rows = try await server.database.query("SELECT count(*) FROM cdn_objects", logger: TestDatabase.logger)
            for try await count in rows.decode(Int.self) { #expect(count == 1) }
            #expect(
                server.uploadTempFiles.isEmpty)
        }
    }

    /// curl sends `Expect: 100-continue`; an over-long declared body is refused before it is sent.
    @Test(arguments: Backend.allCases) func expectContinueIsAnsweredBothWays(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            try await server.changeApp(#"{"file_upload_config":{"size_limit":1048576}}"#)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("expect-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let big = directory.appendingPathComponent("big.bin")
            #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
            try FileHandle(forWritingTo: big).truncate(atOffset: 50 << 20)  // sparse: 50 MB of zeros
            let small = directory.appendingPathComponent("small.txt")
            try Data("hello\n".utf8).write(to: small)

            let token = try await server.token("alice")
            // curl waits 20 s for a 100 Continue that never comes, so a missing answer stands out
            // from a slow one on a loaded machine; what was sent says whether the body went out.
            func curl(_ file: URL) async throws -> (code: String, seconds: Double, sent: Int) {
                let result = try await Subprocess.capture([
                    "/usr/bin/curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total} %{size_upload}",
                    "--expect100-timeout", "20", "-H", "Expect: 100-continue",
                    "-H", "Stream-Auth-Type: jwt", "-H", "Authorization: \(token)", "-F", "file=@\(file.path)",
                    "\(server.baseURL)/api/v2/uploads/file?api_key=\(server.apiKey)",
                ])
                let words = result.stdout.split(separator: " ")
                return (String(words[0]), Double(words[1]) ?? 99, Int(words[2]) ?? -1)
            }
            let refused = try await curl(big)
            #expect(refused.code == "413")
            #expect(refused.sent < 1 << 20, "curl sent \(refused.sent) bytes of the body before the 413")
            #expect(refused.seconds < 10, "the 413 came after \(refused.seconds)s: curl waited for it")
            let accepted = try await curl(small)
            #expect(accepted.code == "201")
            #expect(accepted.seconds < 10, "curl waited \(accepted.seconds)s for 100 Continue")
        }
    }

    @Test(arguments: Backend.allCases) func gcSweepsAgedPendingObjectsAndStrayTempFiles(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            var upload = MultipartForm()
            upload.add("file", fileName: "keep.txt", Data("keep\n".utf8))
            let kept = try #require(try await server.upload("/uploads/file", as: "alice", form: upload).body["file"].string)
            var other = MultipartForm()
            other.add("file", fileName: "old.txt", Data("old\n".utf8))
            let old = try #require(try await server.upload("/uploads/file", as: "alice", form: other).body["file"].string)
            // A crash between reserving and attaching leaves a pending row; age it and the upload.
            _ = try await server.database.query(
                "UPDATE cdn_objects SET state = 'reserved', updated_at = now() - interval '2 hours' WHERE file_name = 'old.txt'",
                logger: TestDatabase.logger
            )
            let stray = server.configuration.tempDirectory.appendingPathComponent("upload-stray")
            try Data("x".utf8).write(to: stray)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: stray.path)

            try await server.waitForStartUpSweep()
            let database = try TestDatabase.serverConfiguration()
            var configuration = database
            configuration.database = try await currentDatabase(server)
            let report = try await sweepOnce(server.configuration, database: configuration, logger: TestDatabase.logger)
            #expect(report.ran)
            #expect(report.objects == 1)
            #expect(report.tempFiles == 1)
            #expect(try await server.fetch(old).status == 404)
            #expect(try await server.fetch(kept).status == 200)
            #expect(!FileManager.default.fileExists(atPath: stray.path))
        }
    }

    func currentDatabase(_ server: TestServer) async throws -> String {
        for try await name in try await server.database.query("SELECT current_database()", logger: TestDatabase.logger).decode(
            String.self)
        {
            return name
        }
        throw TestDatabase.Unavailable()
    }

    func expectNothingStored(_ server: TestServer, activities: Int = 0, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let rows = try await server.database.query(
            // A failed upload keeps its rows claimed (deleting) for the sweeper's second delete, in
            // case a PUT lands late (LateLandingUploadTests); nothing may be live.
            "SELECT (SELECT count(*) FROM activities), (SELECT count(*) FROM cdn_objects WHERE state NOT IN ('deleted', 'deleting'))",
            logger: TestDatabase.logger
        )
        for try await (stored, objects) in rows.decode((Int, Int).self) {
            #expect(stored == activities, sourceLocation: sourceLocation)
            #expect(objects == 0, sourceLocation: sourceLocation)
        }
        // The store's deletes run after the reply.
        try await eventually("nothing left in the store") { try await server.storedObjects().isEmpty }
        let temp = server.uploadTempFiles
        #expect(temp.isEmpty, "left in tmp: \(temp)", sourceLocation: sourceLocation)
    }
}
