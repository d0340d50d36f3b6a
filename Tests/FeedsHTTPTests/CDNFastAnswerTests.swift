import FeedsCDN
import FeedsCore
import Foundation
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import FeedsHTTP

/// What `CDNFastAnswer` answers itself and what it leaves to the routes, one channel at a time.
@Suite struct CDNFastAnswerTests {
    let base = FileManager.default.temporaryDirectory.appending(path: "feeds-fast-path-\(UUID().uuidString)")
    let signer = URLSigner(publicURL: URL(string: "http://localhost:3030")!, apiSecret: "fast-path-secret")

    /// A stored object, kept hot, and a channel with the handler in front of it.
    func setUp() async throws -> (EmbeddedChannel, HotObjects, StoredObject, String) {
        let cdn = LocalDiskCDN(root: base.appending(path: "cdn"), signer: signer)
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let temp = base.appending(path: "upload")
        try Data("hello, fast path".utf8).write(to: temp)
        let key = ObjectKey(fileName: "hello.txt")
        _ = try await cdn.upload(
            LocalFile(
                url: temp, fileName: "hello.txt", size: 16, sha256: String(repeating: "ab", count: 32), mimeType: "text/plain"),
            key: key, progress: { _ in })
        let object = try #require(try cdn.object(for: key))
        let hot = HotObjects(budget: 1 << 20)
        hot.keep(
            object, bytes: try #require(try await cdn.bytes(of: object)), fields: CDNFastAnswer.fields(for: object),
            as: key.rawValue)
        let url = cdn.readURL(for: key, expiresAt: Date().addingTimeInterval(3600))
        let target = url.path(percentEncoded: true) + "?" + url.query(percentEncoded: true)!
        let channel = EmbeddedChannel(handler: FastPath(answers: [CDNFastAnswer(cdn: cdn, hot: hot)], serverName: "feeds"))
        return (channel, hot, object, target)
    }

    func head(_ target: String, _ fields: HTTPFields = [:]) -> HTTPRequestPart {
        .head(HTTPRequest(method: .get, scheme: nil, authority: "x", path: target, headerFields: fields))
    }

    @Test func aPlainSignedGetOfAHotObjectIsAnsweredWithoutTheRoutes() async throws {
        let (channel, _, object, target) = try await setUp()
        defer { try? FileManager.default.removeItem(at: base) }
        try channel.writeInbound(head(target))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil, "nothing reached the routes")
        guard case .head(let response) = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no response head")
            return
        }
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentType] == "text/plain")
        #expect(response.headerFields[.eTag] == object.etag)
        #expect(response.headerFields[.xContentTypeOptions] == "nosniff")
        #expect(response.headerFields[.cacheControl]?.hasPrefix("public, max-age=") == true)
        guard case .body(let body) = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no body")
            return
        }
        #expect(String(buffer: body) == "hello, fast path")
    }

    @Test func everythingElseGoesToTheRoutes() async throws {
        let (channel, hot, object, target) = try await setUp()
        defer { try? FileManager.default.removeItem(at: base) }
        let others: [HTTPRequestPart] = [
            head(target, [.range: "bytes=0-1"]),
            head(target, [.ifNoneMatch: object.etag]),
            head(target, [.connection: "close"]),
            head(target + "&w=10"),
            head(target.replacingOccurrences(of: "Signature=", with: "Signature=x")),
            head(String(target.split(separator: "?")[0])),
            .head(HTTPRequest(method: .head, scheme: nil, authority: "x", path: target)),
        ]
        for request in others {
            try channel.writeInbound(request)
            #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil, "\(request)")
            #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
            try channel.writeOutbound(HTTPResponsePart.end(nil))  // the routes' answer ends
            _ = try channel.readOutbound(as: HTTPResponsePart.self)
        }

        // While the routes still owe an answer, a hot GET waits its turn behind it.
        try channel.writeInbound(head("/healthz"))
        _ = try channel.readInbound(as: HTTPRequestPart.self)
        try channel.writeInbound(head(target))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil, "passed on, in order")
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)

        // A file gone from disk is forgotten, not served.
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        while try channel.readOutbound(as: HTTPResponsePart.self) != nil {}
        try FileManager.default.removeItem(atPath: object.path)
        try channel.writeInbound(head(target))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil)
        #expect(hot.entry(for: object.key.rawValue) == nil)
    }

    @Test func theLeastRecentlyUsedGoFirstWhenTheBudgetIsFull() throws {
        let hot = HotObjects(budget: 100, largest: 40)
        func object(_ name: String, size: Int) -> (StoredObject, ByteBuffer) {
            let key = ObjectKey(rawValue: "0123456789abcdef0123456789abcdef/\(name)")!
            return (
                StoredObject(
                    key: key, path: "/nowhere", size: Int64(size), mimeType: "text/plain", etag: "\"e\"", modifiedAt: Date()),
                ByteBuffer(repeating: 1, count: size)
            )
        }
        #expect(!hot.accepts(size: 41))
        for name in ["a", "b", "c"] {
            let (stored, bytes) = object(name, size: 30)
            hot.keep(stored, bytes: bytes, fields: [:], as: stored.key.rawValue)
        }
        _ = hot.entry(for: "0123456789abcdef0123456789abcdef/a")  // a is used again; b is now the oldest
        let (d, bytes) = object("d", size: 30)
        hot.keep(d, bytes: bytes, fields: [:], as: d.key.rawValue)
        #expect(hot.usedBytes <= 90)
        #expect(hot.entry(for: "0123456789abcdef0123456789abcdef/b") == nil)
        #expect(hot.entry(for: "0123456789abcdef0123456789abcdef/a") != nil)
        #expect(hot.entry(for: "0123456789abcdef0123456789abcdef/d") != nil)
    }
}
