import FeedsCore
import FeedsMedia
import FeedsPostgres
import FeedsTestSupport
import Foundation
import Testing

/// GetOG through the real server against a real web server on loopback (allowed for the test
/// with `FEEDS_OG_ALLOWED_HOSTS`): the page's tags, the cache, redirects and their limit, every
/// target that must not be fetched, and the page's image stored as an upload is.
@Suite struct LinkPreviewTests {
    /// A web server on loopback: `/page` is a page with Open Graph tags, `/r/N` redirects N + 1 times
    /// before it, `/text` is plain text, `/big` is 2 MB of HTML with its tags past the first megabyte.
    /// `/img/sea.jpg` is a phone photo (GPS and all, the file named by the third argument);
    /// `/with/IMAGE` is the page with its `og:image` at IMAGE. Each request is one line in `log`.
    static let script = #"""
        import http.server, sys, urllib.parse
        PAGE = (b'<html><head><title>Fallback</title><meta property="og:title" content="Sea &amp; Sky">'
                b"<meta property='og:description' content='Waves, all day'><meta property=og:image content=/img/sea.jpg>"
                b'<meta property="og:site_name" content="Beach News"><meta property="og:type" content="article">'
                b'</head><body><meta property="og:title" content="not this"></body></html>')
        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                with open(sys.argv[2], "a") as log: log.write(self.path + "\n")
            def send(self, status, kind, body, headers=()):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                for name, value in headers: self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def do_GET(self):
                if self.path == "/page": self.send(200, "text/html; charset=utf-8", PAGE)
                elif self.path == "/img/sea.jpg": self.send(200, "image/jpeg", open(sys.argv[3], "rb").read())
                elif self.path == "/img/huge.jpg": self.send(200, "image/jpeg", b"\xff\xd8" + b"\0" * (6 << 20))
                elif self.path.startswith("/with/"):
                    image = urllib.parse.unquote(self.path[6:]).encode()
                    self.send(200, "text/html", PAGE.replace(b"/img/sea.jpg", image))
                elif self.path.startswith("/r/"):
                    n = int(self.path[3:])
                    self.send(302, "text/html", b"", [("Location", "/page" if n == 0 else "/r/%d" % (n - 1))])
                elif self.path == "/text": self.send(200, "text/plain", b"just text")
                elif self.path == "/big": self.send(200, "text/html", b"<html><head>" + b" " * (2 << 20) + PAGE)
                else: self.send(404, "text/html", b"no")
        http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
        """#

    /// Runs `body` with the web server's base URL and its request log.
    static func withWebServer(_ body: (String, URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("og-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("server.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("requests.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let port = try freeLoopbackPort()
        let python = try #require(Subprocess.find("python3"), "python3 runs the test's web server")
        let photo = try PhonePhotoTests.phonePhoto(in: directory)
        let pid = try Subprocess.spawn([python, script.path, String(port), log.path, photo])
        defer { kill(pid, SIGKILL) }
        let base = "http://127.0.0.1:\(port)"
        try await eventually("the web server answers") {
            (try? await TestServer.send(.GET, base + "/page").status) == 200
        }
        try await body(base, log)
    }

    static func requests(_ log: URL) throws -> [String] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func aPageIsReadOnceADayAndFollowedThroughRedirects() async throws {
        try await Self.withWebServer { base, log in
            try await TestServer.run(configure: { $0.linkPreviewHosts = ["127.0.0.1"] }) { server in
                let url = base + "/page"
                let reply = try await server.api(.GET, "/og", as: "alice", query: "&url=\(Self.escaped(url))")
                #expect(reply.status == 200, "\(reply.text)")
                #expect(
                    reply.body["title"].string == "Sea & Sky" && reply.body["text"].string == "Waves, all day", "\(reply.text)")
                #expect(reply.body["author_name"].string == "Beach News")
                #expect(reply.body["og_scrape_url"].string == url && reply.body["title_link"].string == url)
                #expect(reply.body["type"].string == "article")
                // Again: from the cache, the web server not asked.
                let before = try Self.requests(log).count
                let cached = try await server.api(.GET, "/og", as: "bob", query: "&url=\(Self.escaped(url))")
                #expect(Self.unsigned(cached.body.without("duration")) == Self.unsigned(reply.body.without("duration")))
                #expect(try Self.requests(log).count == before)
                // That answer was made on the event loop (`LinkPreviewFastAnswer`), with the router's headers.
                let names = { (reply: TestServer.Reply) in
                    Set(reply.headers.map { $0.name.lowercased() }.filter { $0 != "date" && $0 != "content-length" })
                }
                #expect(names(cached) == names(reply), "\(cached.headers) against \(reply.headers)")
                #expect(cached.headers["content-type"] == reply.headers["content-type"])
                #expect(cached.headers["x-ratelimit-remaining"].first.flatMap(Int.init) ?? 0 > 5_000)
                // Its refusals are the router's, in Stream's shape.
                expectAPIError(
                    try await server.send(
                        .GET, "/api/v2/og?api_key=\(server.apiKey)&url=\(Self.escaped(url))",
                        headers: [("Stream-Auth-Type", "jwt"), ("Authorization", "not.a.jwt")]),
                    status: 401, code: 5)

                let redirected = try await server.api(.GET, "/og", as: "alice", query: "&url=\(Self.escaped(base + "/r/4"))")
                #expect(redirected.status == 200 && redirected.body["title"].string == "Sea & Sky", "\(redirected.text)")
                #expect(redirected.body["title_link"].string == url)
                expectAPIError(
                    try await server.api(.GET, "/og", as: "alice", query: "&url=\(Self.escaped(base + "/r/5"))"), status: 400,
                    code: 4,
                    field: "url")
                expectAPIError(
                    try await server.api(.GET, "/og", as: "alice", query: "&url=\(Self.escaped(base + "/text"))"), status: 400,
                    code: 4)
                // Only the first megabyte is read: the tags past it are not seen.
                let big = try await server.api(.GET, "/og", as: "alice", query: "&url=\(Self.escaped(base + "/big"))")
                #expect(big.status == 200 && big.body["title"] == .null, "\(big.text.prefix(300))")
            }
        }
    }

    /// URL enrichment: the first link of an activity's or a comment's text becomes a preview
    /// attachment, unless `skip_enrich_url`; previews follow the text through edits; a link that
    /// cannot be previewed costs the post nothing.
    @Test func textsAreEnrichedWithTheirFirstLink() async throws {
        try await Self.withWebServer { base, log in
            try await TestServer.run(configure: { $0.linkPreviewHosts = ["127.0.0.1"] }) { server in
                let page = base + "/page"
                let made = try await server.addActivity(as: "alice", text: "read \(page). now")
                let preview = try #require(made["attachments"].array.first, "\(made)")
                #expect(made["attachments"].array.count == 1)
                #expect(preview["og_scrape_url"].string == page && preview["title"].string == "Sea & Sky", "\(preview)")
                #expect(preview["title_link"].string == page)
                #expect(preview["author_name"].string == "Beach News" && preview["text"].string == "Waves, all day")
                // Its image is the server's copy, held by the post; no file of the post (no asset_url).
                let image = try #require(preview["image_url"].string, "\(preview)")
                #expect(
                    image.contains("/cdn/") && preview["thumb_url"].string?.hasPrefix(image) == true
                        && preview["asset_url"] == .null)
                #expect(try await server.fetch(image).status == 200)
                #expect(
                    try await server.number("SELECT count(*)::int FROM cdn_objects WHERE state = 'attached' AND owner_id IS NULL")
                        == 1)
                let id = try #require(made["id"].string)
                let read = try await server.api(.GET, "/feeds/activities/\(id)", as: "bob").body["activity"]["attachments"]
                #expect(Self.unsigned(read) == Self.unsigned(made["attachments"]))
                // Skipped when asked; a page that is no page, or a target refused, posts without.
                let skipped = try await server.addActivity(as: "alice", text: page, extra: #""skip_enrich_url":true"#)
                #expect(skipped["attachments"].array.isEmpty, "\(skipped)")
                let text = try await server.addActivity(as: "alice", text: "see \(base)/text")
                #expect(text["attachments"].array.isEmpty, "\(text)")
                let metadata = try await server.addActivity(as: "alice", text: "see http://169.254.169.254/latest/meta-data/")
                #expect(metadata["attachments"].array.isEmpty, "\(metadata)")
                // An edit to another link swaps the preview; an edit without one drops it.
                let redirected = base + "/r/0"
                let edited = try await server.api(
                    .PUT, "/feeds/activities/\(id)", as: "alice", json: #"{"text":"now \#(redirected)"}"#)
                #expect(
                    edited.body["activity"]["attachments"].array.compactMap { $0["og_scrape_url"].string } == [redirected],
                    "\(edited.text)")
                let plain = try await server.api(
                    .PATCH, "/feeds/activities/\(id)", as: "alice", json: #"{"set":{"text":"no link"}}"#)
                #expect(plain.body["activity"]["attachments"].array.isEmpty, "\(plain.text)")
                // The images of both previews are released with them, for gc.
                #expect(try await server.number("SELECT count(*)::int FROM cdn_objects WHERE state = 'released'") == 2)
                // Comments too.
                let comment = try await server.api(
                    .POST, "/feeds/comments", as: "bob",
                    json: #"{"object_id":"\#(id)","object_type":"activity","comment":"also \#(page)"}"#)
                #expect(comment.body["comment"]["attachments"][0]["title"].string == "Sea & Sky", "\(comment.text)")
                // Each link was fetched once (the probe first; the redirect lands on the page), the
                // comment's from the cache, the metadata address never; the image once for each preview.
                #expect(try Self.requests(log) == ["/page", "/page", "/img/sea.jpg", "/text", "/r/0", "/page", "/img/sea.jpg"])
            }
        }
    }

    /// Without the allowance, loopback (by any name), private and metadata addresses, other
    /// schemes and ports, and credentials in the URL are refused before anything is fetched.
    @Test func targetsInsideAreNeverFetched() async throws {
        try await Self.withWebServer { base, log in
            try await TestServer.run { server in
                let port = URL(string: base)!.port!
                for url in [
                    base + "/page", "http://localhost:\(port)/page", "http://[::1]:\(port)/page", "http://127.1/page",
                    "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://[::ffff:127.0.0.1]/page",
                    "http://0.0.0.0/", "file:///etc/passwd", "ftp://example.com/", "gopher://127.0.0.1/",
                    "http://user:pass@example.com/", "http://example.com:8080/", "not a url", "",
                    "http://" + String(repeating: "a", count: 3000) + ".com/",
                ] {
                    let reply = try await server.api(.GET, "/og", as: "alice", query: "&url=\(Self.escaped(url))")
                    #expect(reply.status == 400, "\(url): \(reply.text)")
                }
                #expect(
                    try Self.requests(log).allSatisfy { $0 == "/page" } && Self.requests(log).count == 1,
                    "only the readiness probe")
            }
        }
    }

    @Test func addressesAreSortedIntoPublicAndNot() {
        for address in ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "93.184.216.34"] {
            #expect(PublicAddress.isPublic(address), "\(address)")
        }
        for address in [
            "127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
            "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "::ffff:127.0.0.1",
            "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::1", "2001:db8::1", "ff02::1", "localhost", "", "1.2.3",
        ] {
            #expect(!PublicAddress.isPublic(address), "\(address)")
        }
    }

    @Test func tagsAreReadAsPagesWriteThem() {
        let graph = OpenGraph.parse(
            #"<HTML><HEAD><META NAME="twitter:title" CONTENT="T"><meta content="D &#x263A; &#9731;" name="description">"#
                + #"<title> Plain   title </title><meta property="og:image" content="x.png"/></HEAD>"#)
        #expect(graph.title == "T" && graph.description == "D ☺ ☃" && graph.image == "x.png")
        #expect(OpenGraph.parse("<title>Only &lt;this&gt;</title>").title == "Only <this>")
        #expect(OpenGraph.parse("<meta property=\"og:title\" content=\"unterminated").title == nil)
        #expect(OpenGraph.parse(String(repeating: "<", count: 100_000)).title == nil)
    }

    /// The page's image is fetched and stored as an image upload is: its metadata stripped, no
    /// owner, its thumbnail made; the preview answers with the copy's signed URLs. An image that
    /// cannot be had (a target inside, too large, not an image) costs the preview only its image.
    @Test func thePagesImageIsStoredAsAnUploadIs() async throws {
        try await Self.withWebServer { base, log in
            try await TestServer.run(configure: { $0.linkPreviewHosts = ["127.0.0.1"] }) { server in
                let reply = try await server.api(.GET, "/og", as: "alice", query: "&url=\(Self.escaped(base + "/page"))")
                #expect(reply.status == 200, "\(reply.text)")
                let image = try #require(reply.body["image_url"].string, "\(reply.text)")
                #expect(!image.contains("/img/sea.jpg") && image.contains("/cdn/"))
                let stored = try await server.fetch(image)
                #expect(stored.status == 200 && stored.headers["Content-Type"].first == "image/jpeg")
                #expect(try ImageMetadata.strip(stored.data, mimeType: "image/jpeg") == nil, "no metadata left: no GPS")
                let thumb = try await server.fetch(try #require(reply.body["thumb_url"].string))
                #expect(thumb.status == 200 && thumb.headers["Content-Type"].first == "image/jpeg")
                #expect(
                    try await server.number("SELECT count(*)::int FROM cdn_objects WHERE state = 'stored' AND owner_id IS NULL")
                        == 1)
                // Nobody may delete the server's copy but the server.
                expectAPIError(
                    try await server.api(.DELETE, "/uploads/image", as: "alice", query: "&url=\(Self.escaped(image))"),
                    status: 403, code: 17)

                for target in [
                    "http://10.0.0.1/x.jpg", "http://169.254.169.254/latest/meta-data/", base + "/img/huge.jpg", base + "/text",
                ] {
                    let url = base + "/with/" + Self.escaped(target)
                    let without = try await server.api(.GET, "/og", as: "alice", query: "&url=\(Self.escaped(url))")
                    #expect(without.status == 200 && without.body["title"].string == "Sea & Sky", "\(target): \(without.text)")
                    #expect(
                        without.body["image_url"] == .null && without.body["thumb_url"] == .null, "\(target): \(without.text)")
                }
                #expect(try await server.number("SELECT count(*)::int FROM cdn_objects") == 1, "nothing half-stored")
                #expect(try Self.requests(log).filter { $0.hasPrefix("/img/") } == ["/img/sea.jpg", "/img/huge.jpg"])

            }
        }
    }

    /// A preview cached in PostgreSQL whose stored image gc took is fetched again, with a new copy
    /// (this node remembers nothing here, so every read goes to the cache table).
    @Test func aCachedPreviewWhoseImageIsGoneIsFetchedAgain() async throws {
        try await Self.withWebServer { base, log in
            try await TestServer.run(configure: { ($0.linkPreviewHosts, $0.linkPreviewMemory) = (["127.0.0.1"], 0) }) { server in
                let url = "&url=\(Self.escaped(base + "/page"))"
                let first = try await server.api(.GET, "/og", as: "alice", query: url)
                let again = try await server.api(.GET, "/og", as: "bob", query: url)
                #expect(Self.unsigned(again.body["image_url"]) == Self.unsigned(first.body["image_url"]), "\(again.text)")
                #expect(try Self.requests(log).filter { $0 != "/page" } == ["/img/sea.jpg"])
                _ = try await server.number("UPDATE cdn_objects SET state = 'deleted' RETURNING 1")
                let fresh = try await server.api(.GET, "/og", as: "bob", query: url)
                let image = try #require(fresh.body["image_url"].string, "\(fresh.text)")
                #expect(Self.unsigned(fresh.body["image_url"]) != Self.unsigned(first.body["image_url"]))
                #expect(try await server.fetch(image).status == 200)
                #expect(try Self.requests(log).filter { $0 != "/page" } == ["/img/sea.jpg", "/img/sea.jpg"])
            }
        }
    }

    /// Signed URLs without their signatures, which change with the second they are made in.
    static func unsigned(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text) where text.contains("?Expires="): .string(String(text.prefix { $0 != "?" }))
        case .array(let items): .array(items.map(unsigned))
        case .object(let object): .object(object.mapValues(unsigned))
        default: value
        }
    }

    static func escaped(_ url: String) -> String {
        url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url
    }
}

extension JSONValue {
    /// The object without `key`.
    fileprivate func without(_ key: String) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object[key] = nil
        return .object(object)
    }
}
