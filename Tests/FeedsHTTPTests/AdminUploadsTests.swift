import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// The uploads page: newest first, filtered, with thumbnails of images that load, markup in user
/// ids shown as text, and deletes that take the DeleteFile path.
@Suite struct AdminUploadsTests {
    static let png = Data(PNGWriter.png(width: 40, height: 30))

    /// The rows of a page, as their object keys, in order.
    func keys(_ page: TestServer.Reply) -> [String] {
        page.text.components(separatedBy: "<tr data-key=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test(arguments: Backend.allCases) func uploadsAreListedNewestFirstWithThumbnailsAndFilters(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let image = try server.objectKey(
                of: try await server.uploadFile(as: "alice", name: "cat.png", Self.png, to: "/uploads/image"))
            let file = try server.objectKey(of: try await server.uploadFile(as: "bob", name: "notes.txt"))
            let client = try await AdminClient(server).signedIn()

            let page = try await client.get("/admin/uploads")
            #expect(page.status == 200)
            #expect(keys(page) == [file, image])
            #expect(page.text.contains("cat.png") && page.text.contains("image/png") && page.text.contains("40×30"))
            #expect(page.text.contains("notes.txt") && page.text.contains("text/plain"))
            // The thumbnail is a signed, resized URL of ours that serves an image.
            let marker = "<img class=\"thumb\" src=\""
            let start = try #require(page.text.range(of: marker)).upperBound
            let thumbnail = String(page.text[start...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
            #expect(thumbnail.contains("w=512"))
            let served = try await server.fetch(thumbnail)
            #expect(served.status == 200)
            #expect(served.headers.first(name: "content-type")?.hasPrefix("image/") == true)
            let images = page.headers.first(name: "content-security-policy")?.split(separator: ";").first {
                $0.contains("img-src")
            }
            #expect(images?.contains(server.baseURL) == true, "\(images ?? "-")")

            #expect(keys(try await client.get("/admin/uploads?user=alice")) == [image])
            #expect(keys(try await client.get("/admin/uploads?kind=file")) == [file])
            #expect(keys(try await client.get("/admin/uploads?state=pending")) == [file, image])
            #expect(keys(try await client.get("/admin/uploads?state=attached")) == [])
            #expect(keys(try await client.get("/admin/uploads?user=carol")) == [])
        }
    }

    @Test func anUploadHeldByAnActivityNamesIt() async throws {
        try await TestServer.run { server in
            let url = try await server.uploadFile(as: "alice", name: "cat.png", Self.png, to: "/uploads/image")
            let reply = try await server.api(
                .POST, "/feeds/activities", as: "alice",
                json: #"{"type":"post","feeds":["user:alice"],"attachments":[{"type":"image","image_url":"\#(url)"}]}"#)
            #expect(reply.status == 201, "\(reply.text)")
            let activity = try #require(reply.body["activity"]["id"].string)
            let client = try await AdminClient(server).signedIn()
            let page = try await client.get("/admin/uploads?state=attached")
            #expect(keys(page) == [try server.objectKey(of: url)])
            #expect(page.text.contains("activity <span class=\"mono\">\(activity)</span>"))
        }
    }

    @Test func pagesGoOnFromTheLastUpload() async throws {
        try await TestServer.run { server in
            for index in 0..<53 { _ = try await server.uploadFile(as: "alice", name: "n\(index).txt") }
            let client = try await AdminClient(server).signedIn()
            let first = try await client.get("/admin/uploads?user=alice")
            #expect(keys(first).count == 50)
            let marker = "<a href=\"/admin/uploads?"
            let start = try #require(first.text.range(of: marker)).upperBound
            let next = String(first.text[start...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
            #expect(next.hasPrefix("user=alice&before_time="))
            let second = try await client.get("/admin/uploads?" + next)
            #expect(keys(second).count == 3)
            #expect(Set(keys(first)).isDisjoint(with: keys(second)))
            #expect(!second.text.contains("Older uploads"))
        }
    }

    @Test func markupInUserIDsIsShownAsText() async throws {
        try await TestServer.run { server in
            var form = MultipartForm()
            form.add("file", fileName: "a.txt", Data("x".utf8))
            form.add("user", json: #"{"id":"<img src=x onerror=alert(1)>"}"#)
            #expect(try await server.upload("/uploads/file", as: nil, form: form).status == 201)
            let client = try await AdminClient(server).signedIn()
            let page = try await client.get("/admin/uploads")
            #expect(!page.text.contains("<img src=x"))
            #expect(page.text.contains("&lt;img src=x onerror=alert(1)&gt;"))
            let filtered = try await client.get("/admin/uploads?user=\(queryEncoded("<img src=x onerror=alert(1)>"))")
            #expect(keys(filtered).count == 1)
            #expect(filtered.text.contains(#"value="&lt;img src=x onerror=alert(1)&gt;""#))
        }
    }

    @Test func hostileFiltersAreRefused() async throws {
        try await TestServer.run { server in
            let client = try await AdminClient(server).signedIn()
            for query in [
                "kind=video", "state=stored", "user=" + String(repeating: "a", count: 300), "before_time=x&before_key=y",
                "before_time=1&before_key=" + queryEncoded("../../etc/passwd"),
            ] {
                let reply = try await client.get("/admin/uploads?" + query)
                #expect(reply.status == 400, "\(query)")
                #expect(!reply.text.contains("<table"), "\(query)")
            }
        }
    }

    @Test(arguments: Backend.allCases) func deletingTakesTheDeleteFilePath(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let url = try await server.uploadFile(as: "alice", name: "cat.png", Self.png, to: "/uploads/image")
            let key = try server.objectKey(of: url)
            let client = try await AdminClient(server).signedIn()
            let csrf = try await client.sessionCSRF()

            // Without the session's token, nothing happens.
            let refused = try await client.post("/admin/uploads/delete", [("csrf", "forged"), ("key", key)])
            #expect(refused.status == 403)
            #expect(try await server.state(of: key) == "stored")

            let reply = try await client.post(
                "/admin/uploads/delete", [("csrf", csrf), ("key", key), ("user", "alice"), ("kind", ""), ("state", "")])
            #expect(reply.status == 303)
            #expect(reply.location == "/admin/uploads?deleted=1&user=alice")
            #expect(try await server.state(of: key) == "deleted")
            #expect(try await server.stores(key) == false)
            #expect(try await server.fetch(url).status == 404)
            let page = try await client.get("/admin/uploads?user=alice&state=deleted")
            #expect(keys(page) == [key])
            #expect(!page.text.contains("<img class=\"thumb\""), "no thumbnail of what is gone")
            #expect(!page.text.contains("action=\"/admin/uploads/delete\""))

            #expect(try await client.post("/admin/uploads/delete", [("csrf", csrf), ("key", "../../etc/passwd")]).status == 400)
            let unknown = String(repeating: "0", count: 32) + "/x.txt"
            #expect(try await client.post("/admin/uploads/delete", [("csrf", csrf), ("key", unknown)]).status == 404)
        }
    }
}
