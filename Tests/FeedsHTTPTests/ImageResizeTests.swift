import FeedsCore
import FeedsMedia
import FeedsTestSupport
import Foundation
import Testing

@Suite struct ImageResizeTests {
    /// Uploads a PNG of `width`×`height` (or `bytes`) as alice; returns the reply's `file` URL and `thumb_url`.
    func upload(
        _ server: TestServer, width: Int = 400, height: Int = 300, bytes: [UInt8]? = nil, name: String = "p.png",
        sizes: String? = nil, endpoint: String = "/uploads/image"
    ) async throws -> (file: String, thumb: String?) {
        var form = MultipartForm()
        form.add("file", fileName: name, Data(bytes ?? PNGWriter.png(width: width, height: height)))
        if let sizes { form.add("upload_sizes", Data(sizes.utf8)) }
        let reply = try await server.upload(endpoint, as: "alice", form: form)
        #expect(reply.status == 201, "\(reply.text)")
        return (try #require(reply.body["file"].string), reply.body["thumb_url"].string)
    }

    /// The width and height of an image answer, read back with libvips.
    func dimensions(_ reply: TestServer.Reply) throws -> (Int, Int) {
        let path = NSTemporaryDirectory() + "resized-\(UUID().uuidString)"
        try reply.data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = try #require(try ImageProbe.dimensions(ofFileAt: path), "not an image: \(reply.text.prefix(200))")
        return (size.width, size.height)
    }

    @Test(arguments: Backend.allCases) func resizedImagesHaveTheSizeAskedAndAreCached(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let (url, _) = try await upload(server)
            for (query, width, height) in [
                ("w=100&h=100&resize=crop", 100, 100), ("w=200", 200, 150), ("h=60", 80, 60), ("w=100&h=100", 100, 75),
                ("w=100&h=100&resize=scale", 100, 100), ("w=100&h=100&resize=fill", 100, 100),
                ("w=50&h=100&resize=crop&crop=left", 50, 100),
            ] {
                let reply = try await server.fetch(url + "&" + query)
                #expect(reply.status == 200, "\(query): \(reply.text)")
                #expect(try dimensions(reply) == (width, height), "\(query)")
                #expect(reply.headers.first(name: "Content-Type") == "image/png")
                #expect(reply.headers.first(name: "X-Content-Type-Options") == "nosniff")
                #expect(reply.headers.first(name: "Content-Security-Policy") == "default-src 'none'; sandbox")
                #expect(reply.headers.first(name: "Content-Disposition") == nil)
                #expect(reply.headers.first(name: "Cache-Control")?.hasPrefix("public, max-age=") == true)
                #expect(reply.headers.first(name: "X-Feeds-Variant") == "computed")
            }
            // The original is fetched from S3 once, into the same cache: seven variants and one original.
            let cached = try FileManager.default.contentsOfDirectory(atPath: server.configuration.variantDirectory.path)
            #expect(cached.count == (backend == .s3 ? 8 : 7), "\(cached)")
            let again = try await server.fetch(url + "&w=200")
            #expect(again.headers.first(name: "X-Feeds-Variant") == "cached")
            #expect(try dimensions(again) == (200, 150))
            // Conditional requests work on variants too.
            let etag = try #require(again.headers.first(name: "ETag"))
            #expect(try await server.fetch(url + "&w=200", headers: [("If-None-Match", etag)]).status == 304)
        }
    }

    @Test func invalidParametersAre400AndTheSignatureStillCounts() async throws {
        try await TestServer.run { server in
            let (url, _) = try await upload(server)
            for (query, field) in [
                ("w=0", "w"), ("w=4097", "w"), ("h=-1", "h"), ("w=abc", "w"), ("w=10&resize=stretch", "resize"),
                ("w=10&crop=middle", "crop"), ("resize=crop", "resize"),
            ] {
                let reply = try await server.fetch(url + "&" + query)
                let body = expectAPIError(reply, status: 400, code: 4)
                #expect(!body["exception_fields"][field].isNull, "\(query): \(reply.text)")
            }
            let tampered = url.replacingOccurrences(of: "Signature=", with: "Signature=A")
            #expect(try await server.fetch(tampered + "&w=10").status == 403)
        }
    }

    /// Errors and redirects under /cdn are as safe as files: never sniffed, sandboxed.
    @Test(arguments: Backend.allCases) func everyCDNAnswerCarriesTheSafetyHeaders(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let (url, _) = try await upload(server)
            let path = String(url.dropFirst(server.baseURL.count))
            let answers = [
                try await server.send(.GET, path, followRedirects: false),  // 200, or 302 to the store
                try await server.send(.GET, path + "&w=0"),  // 400
                try await server.send(.GET, path.replacingOccurrences(of: "Signature=", with: "Signature=A")),  // 403
                try await server.send(.GET, "/cdn/00000000000000000000000000000000/x.png"),  // 403, unsigned
            ]
            #expect(answers.map(\.status) == [backend == .s3 ? 302 : 200, 400, 403, 403])
            for answer in answers {
                #expect(answer.headers.first(name: "X-Content-Type-Options") == "nosniff")
                #expect(answer.headers.first(name: "Content-Security-Policy") == "default-src 'none'; sandbox")
            }
        }
    }

    @Test func svgIsNeverRasterised() async throws {
        try await TestServer.run { server in
            let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="10" height="10"/></svg>"#
            let (url, thumb) = try await upload(server, bytes: Array(svg.utf8), name: "a.svg")
            #expect(thumb == url, "an SVG's thumbnail is the file itself")
            expectAPIError(try await server.fetch(url + "&w=10"), status: 400, code: 4)
            let original = try await server.fetch(url)
            #expect(original.status == 200)
            #expect(original.headers.first(name: "Content-Disposition")?.hasPrefix("attachment") == true)
        }
    }

    @Test func thePixelCapRefusesResizingButTheOriginalServes() async throws {
        try await TestServer.run { server in
            // 230137 × 73 = 16,800,001 pixels by its header.
            let (url, _) = try await upload(
                server, bytes: PNGWriter.claiming(width: 230_137, height: 73), endpoint: "/uploads/file")
            let refused = try await server.fetch(url + "&w=100")
            let body = expectAPIError(refused, status: 400, code: 4)
            #expect(body["message"].string?.contains("16800000") == true, "\(refused.text)")
            #expect(try await server.fetch(url).status == 200)
        }
    }

    @Test func aCorruptImageIs400AndTheServerStaysUp() async throws {
        try await TestServer.run { server in
            let whole = PNGWriter.png(width: 300, height: 300)
            let (url, _) = try await upload(server, bytes: Array(whole.prefix(whole.count / 2)), endpoint: "/uploads/file")
            expectAPIError(try await server.fetch(url + "&w=100"), status: 400, code: 4)
            #expect(try await server.send(.GET, "/healthz").status == 200)
            let (good, _) = try await upload(server)
            #expect(try await server.fetch(good + "&w=40").status == 200)
        }
    }

    @Test(arguments: Backend.allCases) func simultaneousIdenticalRequestsAreComputedOnce(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let (url, _) = try await upload(server, width: 1200, height: 900)
            let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await server.fetch(url + "&w=300&h=300&resize=crop").headers.first(name: "X-Feeds-Variant") ?? ""
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "computed" }.count == 1, "\(outcomes)")
            #expect(outcomes.allSatisfy { ["computed", "coalesced", "cached"].contains($0) }, "\(outcomes)")
        }
    }

    @Test func thumbnailsAreBoundedVariants() async throws {
        try await TestServer.run { server in
            let (_, thumb) = try await upload(server, width: 1200, height: 800)
            let thumbURL = try #require(thumb)
            #expect(thumbURL.contains("w=512&h=512"))
            #expect(try dimensions(try await server.fetch(thumbURL)) == (512, 341))

            // Image attachments get one too.
            var form = MultipartForm()
            form.add(
                "activity", json: #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"image","file":"p"}]}"#)
            form.add("p", fileName: "p.png", Data(PNGWriter.png(width: 300, height: 600)))
            let reply = try await server.upload("/feeds/activities", as: "alice", form: form)
            let attachmentThumb = try #require(reply.body["activity"]["attachments"][0]["thumb_url"].string)
            #expect(try dimensions(try await server.fetch(attachmentThumb)) == (256, 512))
        }
    }

    @Test(arguments: Backend.allCases) func uploadSizesArePrecomputed(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let (url, _) = try await upload(server, sizes: #"[{"width":50,"height":50,"resize":"crop","crop":"top"}]"#)
            let reply = try await server.fetch(url + "&w=50&h=50&resize=crop&crop=top")
            #expect(reply.headers.first(name: "X-Feeds-Variant") == "cached")
            #expect(try dimensions(reply) == (50, 50))
        }
    }

    @Test func badUploadSizesAreRefusedBeforeAnythingIsStored() async throws {
        try await TestServer.run { server in
            var form = MultipartForm()
            form.add("file", fileName: "p.png", Data(PNGWriter.png(width: 10, height: 10)))
            form.add("upload_sizes", Data(#"[{"width":0,"height":50}]"#.utf8))
            let reply = try await server.upload("/uploads/image", as: "alice", form: form)
            let body = expectAPIError(reply, status: 400, code: 4)
            #expect(!body["exception_fields"]["upload_sizes"].isNull)
            let rows = try await server.database.query("SELECT count(*) FROM cdn_objects", logger: TestDatabase.logger)
            for try await count in rows.decode(Int.self) { #expect(count == 0) }
        }
    }

    @Test func theLeastRecentlyUsedVariantIsEvicted() async throws {
        // A budget of one byte keeps only the newest variant.
        try await TestServer.run(configure: { $0.variantCacheBytes = 1 }) { server in
            let (url, _) = try await upload(server)
            #expect(try await server.fetch(url + "&w=10").headers.first(name: "X-Feeds-Variant") == "computed")
            #expect(try await server.fetch(url + "&w=10").headers.first(name: "X-Feeds-Variant") == "cached")
            #expect(try await server.fetch(url + "&w=20").headers.first(name: "X-Feeds-Variant") == "computed")
            #expect(try await server.fetch(url + "&w=10").headers.first(name: "X-Feeds-Variant") == "computed")
            let files = try FileManager.default.contentsOfDirectory(atPath: server.configuration.variantDirectory.path)
            #expect(files.count == 1, "\(files)")
        }
    }
}
