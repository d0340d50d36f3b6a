import FeedsCDN
import FeedsCore
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

@Suite struct UploadTests {
    static let png = Data(PNGWriter.png(width: 64, height: 48))

    func form(_ name: String = "file", fileName: String, type: String? = nil, _ data: Data, user: String? = nil) -> MultipartForm
    {
        var form = MultipartForm()
        form.add(name, fileName: fileName, contentType: type, data)
        if let user { form.add("user", json: #"{"id":"\#(user)"}"#) }
        return form
    }

    @Test(arguments: Backend.allCases) func anImageUploadIsStoredAndServedFromASignedURL(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            var form = form(fileName: "photo.png", type: "image/png", Self.png)
            form.add("upload_sizes", Data(#"[{"width":100,"height":100,"resize":"crop","crop":"center"}]"#.utf8))
            let reply = try await server.upload("/uploads/image", as: "alice", form: form)
            #expect(reply.status == 201, "\(reply.text)")
            let url = try #require(reply.body["file"].string)
            #expect(reply.body["thumb_url"].string != nil)
            #expect(reply.body["upload_sizes"][0]["resize"].string == "crop")
            #expect(url.contains("/cdn/") && url.contains("Expires=") && url.contains("Signature="))

            // Our URL answers itself on disk; with S3 it redirects to the store, whose URL is short-lived.
            let hop = try await server.fetchOnce(url)
            #expect(hop.headers.first(name: "X-Content-Type-Options") == "nosniff")
            if backend == .s3 {
                #expect(hop.status == 302)
                let location = try #require(hop.headers.first(name: "Location"))
                #expect(location.hasPrefix(try #require(server.bucket).configuration.endpoint.absoluteString))
                #expect(location.contains("X-Amz-Signature=") && location.contains("X-Amz-Expires=600"))
            }
            let served = try await server.fetch(url)
            #expect(served.status == 200)
            #expect(served.data == Self.png)
            #expect(served.headers.first(name: "Content-Type") == "image/png")
            #expect(served.headers.first(name: "Content-Disposition") == nil)

            let rows = try await server.database.query(
                "SELECT state, owner_id, width, height FROM cdn_objects", logger: TestDatabase.logger)
            for try await (state, owner, width, height) in rows.decode((String, String?, Int?, Int?).self) {
                #expect(state == "stored")
                #expect(owner == "alice")
                #expect(width == 64 && height == 48)
            }
        }
    }

    @Test(arguments: Backend.allCases) func aFileUploadDownloadsRatherThanRenders(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let html = Data("<html><body>hi</body></html>".utf8)
            let reply = try await server.upload("/uploads/file", as: "alice", form: form(fileName: "page.html", html))
            #expect(reply.status == 201, "\(reply.text)")
            #expect(reply.body["thumb_url"].isNull)
            let served = try await server.fetch(try #require(reply.body["file"].string))
            #expect(served.text == "<html><body>hi</body></html>")
            #expect(served.headers.first(name: "Content-Type") == "text/html")
            #expect(served.headers.first(name: "Content-Disposition")?.hasPrefix("attachment") == true)
            // The store sends the type and disposition stored with the object, but no headers of ours.
            if backend == .local {
                #expect(served.headers.first(name: "Content-Security-Policy") == "default-src 'none'; sandbox")
            }
        }
    }

    @Test(arguments: Backend.allCases) func rangesAndETagsWork(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let text = Data("0123456789abcdef".utf8)
            let url = try #require(
                try await server.upload("/uploads/file", as: "alice", form: form(fileName: "n.txt", text)).body["file"].string)
            let part = try await server.fetch(url, headers: [("Range", "bytes=2-5")])
            #expect(part.status == 206)
            #expect(part.text == "2345")
            #expect(part.headers.first(name: "Content-Range") == "bytes 2-5/16")
            let tail = try await server.fetch(url, headers: [("Range", "bytes=-3")])
            #expect(tail.text == "def")
            #expect(try await server.fetch(url, headers: [("Range", "bytes=99-")]).status == 416)
            let etag = try #require(try await server.fetch(url).headers.first(name: "ETag"))
            #expect(try await server.fetch(url, headers: [("If-None-Match", etag)]).status == 304)
        }
    }

    @Test(arguments: Backend.allCases) func signedURLsRefuseTamperingAndExpiry(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let url = try #require(
                try await server.upload("/uploads/file", as: "alice", form: form(fileName: "a.txt", Data("x".utf8))).body["file"]
                    .string)
            let components = try #require(URLComponents(string: url))
            let path = components.path
            let expires = try #require(components.queryItems?.first { $0.name == "Expires" }?.value)
            let signature = try #require(components.queryItems?.first { $0.name == "Signature" }?.value)

            expectAPIError(try await server.send(.GET, path), status: 403, code: 17)
            // The first character carries whole bits (the last one partly padding), so changing it always changes the MAC.
            let tampered = (signature.first == "A" ? "B" : "A") + signature.dropFirst()
            expectAPIError(
                try await server.send(.GET, "\(path)?Expires=\(expires)&Signature=\(tampered)"), status: 403,
                code: 17)
            expectAPIError(
                try await server.send(.GET, "\(path)?Expires=\(Int(expires)! + 1)&Signature=\(signature)"), status: 403, code: 17)
            let other = path.replacingOccurrences(of: "a.txt", with: "b.txt")
            expectAPIError(
                try await server.send(.GET, "\(other)?Expires=\(expires)&Signature=\(signature)"), status: 403, code: 17)

            // Signed properly, but in the past.
            let signer = URLSigner(publicURL: URL(string: server.baseURL)!, apiSecret: TestServer.apiSecret)
            let key = try #require(ObjectKey(rawValue: String(path.dropFirst("/cdn/".count))))
            let expired = signer.url(for: key, expiresAt: Date().addingTimeInterval(-10)).absoluteString
            expectAPIError(try await server.fetch(expired), status: 403, code: 17)
            #expect(
                try await server.fetch(signer.url(for: key, expiresAt: Date().addingTimeInterval(60)).absoluteString).status
                    == 200)
        }
    }

    @Test(
        arguments: Backend.allCases,
        [
            ("/uploads/image", "fake.png", "image/png", "<html><script>alert(1)</script></html>", "text/html"),
            ("/uploads/file", "fake.jpg", "image/jpeg", "<!DOCTYPE html><html><body>x</body></html>", "text/html"),
            (
                "/uploads/image", "doc.pdf", "application/pdf", "%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n",
                "application/pdf"
            ),
            ("/uploads/image", "notes.txt", "text/plain", "just some words\n", "text/plain"),
        ])
    func spoofedAndWrongTypesAreRefusedNamingWhatWasFound(
        backend: Backend, upload: (path: String, name: String, type: String, content: String, found: String)
    ) async throws {
        let (path, name, type, content, found) = upload
        try await TestServer.run(backend: backend) { server in
            let reply = try await server.upload(path, as: "alice", form: form(fileName: name, type: type, Data(content.utf8)))
            let body = expectAPIError(reply, status: 400, code: 4, field: "file")
            #expect(body["message"].string?.contains(found) == true, "\(reply.text)")
            try await expectNoObjects(server)
        }
    }

    @Test(arguments: Backend.allCases) func deletesNeedTheOwnerOrTheServerAndMayRepeat(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let url = try #require(
                try await server.upload("/uploads/file", as: "alice", form: form(fileName: "a.txt", Data("x".utf8))).body["file"]
                    .string)
            let query = "&url=\(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            expectAPIError(try await server.api(.DELETE, "/uploads/file", as: "bob", query: query), status: 403, code: 17)
            #expect(try await server.api(.DELETE, "/uploads/file", as: "alice", query: query).status == 200)
            #expect(try await server.api(.DELETE, "/uploads/file", as: "alice", query: query).status == 200)
            expectAPIError(try await server.fetch(url), status: 404, code: 16)

            let image = try #require(
                try await server.upload("/uploads/image", as: "alice", form: form(fileName: "p.png", Self.png)).body["file"]
                    .string)
            let imageQuery = "&url=\(image.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            #expect(try await server.api(.DELETE, "/uploads/image", as: nil, query: imageQuery).status == 200)
            #expect(try await server.storedObjects().isEmpty, "a deleted file is gone from the store")

            let foreign =
                "&url=\("https://elsewhere.example/cdn/x.png".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            expectAPIError(try await server.api(.DELETE, "/uploads/file", as: "alice", query: foreign), status: 404, code: 16)
        }
    }

    func expectNoObjects(_ server: TestServer, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let rows = try await server.database.query(
            "SELECT count(*) FROM cdn_objects WHERE state <> 'deleted'", logger: TestDatabase.logger
        )
        for try await count in rows.decode(Int.self) { #expect(count == 0, sourceLocation: sourceLocation) }
        let stored = try await server.storedObjects()
        #expect(stored.isEmpty, "left in the CDN: \(stored)", sourceLocation: sourceLocation)
        let temp = server.uploadTempFiles
        #expect(temp.isEmpty, "left in tmp: \(temp)", sourceLocation: sourceLocation)
    }
}
