import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// What a client puts in the multipart framing of an upload: file names that dodge the
/// extension rules, and JSON parts far larger than any request body.
@Suite struct UploadInputAbuseTests {
    /// Nothing of a refused request is left: no activity, no object row, no stored bytes, no temp file.
    func expectNothingLeft(_ server: TestServer, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await server.number("SELECT count(*) FROM activities") == 0, sourceLocation: sourceLocation)
        #expect(try await server.number("SELECT count(*) FROM cdn_objects") == 0, sourceLocation: sourceLocation)
        #expect(try await server.storedObjects().isEmpty, sourceLocation: sourceLocation)
        let temp = server.uploadTempFiles
        #expect(temp.isEmpty, "left in tmp: \(temp)", sourceLocation: sourceLocation)
    }

    // 7. A blocked extension is blocked however the name ends: a slash, a dot, a directory before it.
    @Test(arguments: Backend.allCases, ["evil.exe/", "evil.exe.", "x/evil.exe"])
    func aBlockedExtensionCannotHideInTheFileName(backend: Backend, name: String) async throws {
        try await TestServer.run(backend: backend) { server in
            try await server.changeApp(#"{"file_upload_config":{"blocked_file_extensions":["exe"]}}"#)
            let bytes = Data("MZ not really a program\n".utf8)

            var standalone = MultipartForm()
            standalone.add("file", fileName: name, bytes)
            expectAPIError(try await server.upload("/uploads/file", as: "alice", form: standalone), status: 400, code: 4)

            var withActivity = MultipartForm()
            withActivity.add(
                "activity", json: #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"file","file":"doc"}]}"#)
            withActivity.add("doc", fileName: name, bytes)
            expectAPIError(
                try await server.upload("/feeds/activities", as: "alice", form: withActivity), status: 400, code: 4)
            try await expectNothingLeft(server)
        }
    }

    // 10. The activity part of a multipart AddActivity is JSON like any body: at most 1 MB.
    @Test(arguments: Backend.allCases) func anActivityPartOverOneMegabyteIs413(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            var form = MultipartForm()
            form.add("doc", fileName: "notes.txt", Data("some notes\n".utf8))
            let text = String(repeating: "a", count: 2 << 20)
            form.add(
                "activity",
                json:
                    #"{"type":"post","feeds":["user:alice"],"text":"\#(text)","attachment_uploads":[{"type":"file","file":"doc"}]}"#
            )
            expectAPIError(try await server.upload("/feeds/activities", as: "alice", form: form), status: 413, code: 22)
            try await expectNothingLeft(server)
        }
    }

    // 10. So is the user part of an upload.
    @Test(arguments: Backend.allCases) func aUserPartOverOneMegabyteIs413(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            var form = MultipartForm()
            form.add("file", fileName: "notes.txt", Data("some notes\n".utf8))
            let padding = String(repeating: "a", count: 2 << 20)
            form.add("user", json: #"{"id":"alice","custom":{"padding":"\#(padding)"}}"#)
            expectAPIError(try await server.upload("/uploads/file", as: "alice", form: form), status: 413, code: 22)
            try await expectNothingLeft(server)
        }
    }
}
