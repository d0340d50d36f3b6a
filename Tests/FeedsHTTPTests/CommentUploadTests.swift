import FeedsCore
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

/// Comments with files in the same request (`multipart/form-data`: the part `comment` and one
/// part per file), through the same checks, uploader and object lifecycle as activities, on the
/// local disk and on S3.
@Suite struct CommentUploadTests {
    static let png = Data(PNGWriter.png(width: 30, height: 20))

    func commentForm(_ json: String, files: [(String, String, Data)]) -> MultipartForm {
        var form = MultipartForm()
        form.add("comment", json: json)
        for (part, name, data) in files { form.add(part, fileName: name, data) }
        return form
    }

    @Test(arguments: Backend.allCases) func aCommentWithAPhotoStoresItAndReleasesItOnDelete(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let form = commentForm(
                #"""
                {"object_id":"\#(id)","object_type":"activity","comment":"look",
                 "attachment_uploads":[{"type":"image","file":"pic","title":"Sunset"},{"type":"file","file":"notes"}]}
                """#,
                files: [("pic", "sunset.png", Self.png), ("notes", "notes.txt", Data("some notes\n".utf8))])
            let reply = try await server.upload("/feeds/comments", as: "bob", form: form)
            #expect(reply.status == 201, "\(reply.text)")
            let attachments = reply.body["comment"]["attachments"].array
            #expect(attachments.map { $0["type"].string } == ["image", "file"])
            #expect(attachments[0]["mime_type"].string == "image/png" && attachments[0]["original_width"].int == 30)
            #expect(attachments[0]["title"].string == "Sunset" && attachments[0]["thumb_url"].string != nil)
            #expect(attachments[1]["file_size"].int == 11)
            #expect(try await server.fetch(try #require(attachments[1]["asset_url"].string)).text == "some notes\n")
            #expect(try await server.number("SELECT count(*)::int FROM cdn_objects WHERE state = 'attached' AND owner_id = 'bob'") == 2)

            // Only text and no files: a photo alone is a comment too.
            let photoOnly = commentForm(
                #"{"object_id":"\#(id)","object_type":"activity","attachment_uploads":[{"type":"image","file":"p"}]}"#,
                files: [("p", "p.png", Self.png)])
            #expect(try await server.upload("/feeds/comments", as: "bob", form: photoOnly).status == 201)

            let commentID = try #require(reply.body["comment"]["id"].string)
            #expect(try await server.api(.DELETE, "/feeds/comments/\(commentID)", as: "bob").status == 200)
            #expect(try await server.number("SELECT count(*)::int FROM cdn_objects WHERE state = 'released'") == 2)
        }
    }

    @Test(
        arguments: Backend.allCases,
        [
            (#"{"object_id":"ACT","attachment_uploads":[{"type":"file","file":"missing"}]}"#, [("doc", "d.txt")]),
            (#"{"object_id":"ACT","attachment_uploads":[{"type":"file","file":"doc"}]}"#, [("doc", "d.txt"), ("stray", "s.txt")]),
            (#"{"object_id":"ACT","attachment_uploads":[{"type":"image","file":"doc"}]}"#, [("doc", "d.txt")]),
            (
                #"{"object_id":"ACT","attachment_uploads":[\#((0..<11).map { #"{"type":"file","file":"f\#($0)"}"# }.joined(separator: ","))]}"#,
                (0..<11).map { ("f\($0)", "f\($0).txt") }
            ),
            (#"{"attachment_uploads":[{"type":"file","file":"doc"}]}"#, [("doc", "d.txt")]),
        ])
    func badMultipartCommentsAreRefusedLeavingNothing(backend: Backend, request: (json: String, parts: [(String, String)]))
        async throws
    {
        try await TestServer.run(backend: backend) { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let form = commentForm(
                request.json.replacingOccurrences(of: "ACT", with: id), files: request.parts.map { ($0.0, $0.1, Data("text\n".utf8)) })
            expectAPIError(try await server.upload("/feeds/comments", as: "bob", form: form), status: 400, code: 4)
            try await expectNothingStored(server)
        }
    }

    @Test(arguments: Backend.allCases) func aCommentThatCannotBeWrittenDeletesItsFiles(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let hidden = try #require(try await server.addActivity(as: "alice", extra: #""visibility":"private""#)["id"].string)
            let form = commentForm(
                #"{"object_id":"\#(hidden)","object_type":"activity","attachment_uploads":[{"type":"image","file":"pic"}]}"#,
                files: [("pic", "p.png", Self.png)])
            expectAPIError(try await server.upload("/feeds/comments", as: "mallory", form: form), status: 404, code: 16)
            try await expectNothingStored(server)
        }
    }

    @Test(arguments: Backend.allCases) func aStoreThatFailsMidBatchIs502AndLeavesNothing(backend: Backend) async throws {
        try await TestServer.run(backend: backend, cdn: { FailingCDN(wrapping: $0, failOnUpload: 2) }) { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let form = commentForm(
                #"{"object_id":"\#(id)","comment":"x","attachment_uploads":[{"type":"file","file":"a"},{"type":"file","file":"b"},{"type":"file","file":"c"}]}"#,
                files: [("a", "a.txt", Data("a\n".utf8)), ("b", "b.txt", Data("b\n".utf8)), ("c", "c.txt", Data("c\n".utf8))])
            expectAPIError(try await server.upload("/feeds/comments", as: "bob", form: form), status: 502, code: -1)
            try await expectNothingStored(server)
        }
    }

    /// The app's upload rules hold for comment files: the size limit (413) and blocked types (400).
    @Test(arguments: Backend.allCases) func theUploadRulesHoldForCommentFiles(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            try await server.changeApp(#"{"file_upload_config":{"size_limit":65536,"blocked_file_extensions":["exe"]}}"#)
            let big = commentForm(
                #"{"object_id":"\#(id)","attachment_uploads":[{"type":"file","file":"big"}]}"#,
                files: [("big", "big.bin", Data(repeating: 7, count: 64 * 1024 + 1))])
            expectAPIError(try await server.upload("/feeds/comments", as: "bob", form: big), status: 413, code: 22)
            let blocked = commentForm(
                #"{"object_id":"\#(id)","attachment_uploads":[{"type":"file","file":"x"}]}"#,
                files: [("x", "setup.exe", Data("MZ not really\n".utf8))])
            expectAPIError(try await server.upload("/feeds/comments", as: "bob", form: blocked), status: 400, code: 4)
            try await expectNothingStored(server)
            #expect(try await server.number("SELECT count(*)::int FROM comments") == 0)
        }
    }

    func expectNothingStored(_ server: TestServer, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        // A failed upload keeps its rows claimed (deleting) for the sweeper's second delete; nothing may be live.
        let live = try await server.number("SELECT count(*)::int FROM cdn_objects WHERE state NOT IN ('deleted', 'deleting')")
        #expect(live == 0, sourceLocation: sourceLocation)
        // The store's deletes run after the reply.
        try await eventually("nothing left in the store") { try await server.storedObjects().isEmpty }
        #expect(server.uploadTempFiles.isEmpty, sourceLocation: sourceLocation)
    }
}
