import FeedsCore
import FeedsTestSupport
import Foundation
import Logging
import Synchronization
import Testing

@testable import FeedsHTTP

/// Logs never hold a token, a URL signature or a presigned S3 credential: a 500 logged the whole
/// request, `Authorization` header and all.
@Suite struct LogRedactionTests {
    /// Every line the server logs, as text.
    final class Lines: Sendable {
        let all = Mutex<[String]>([])
        var text: String { all.withLock { $0.joined(separator: "\n") } }
    }

    struct Capture: LogHandler {
        let lines: Lines
        var logLevel: Logger.Level = .debug
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            lines.all.withLock { $0.append("\(event.level) \(event.message) \(merged)") }
        }
    }

    /// A store whose deletes fail in a way nobody expected: the request is a 500, and logged.
    final class BrokenCDN: CDNClient {
        struct Surprise: Error {}
        let store: any CDNClient
        init(_ store: any CDNClient) { self.store = store }
        var maxAttachmentSize: Int64 { store.maxAttachmentSize }
        func upload(_ file: LocalFile, key: ObjectKey, progress: @escaping @Sendable (Double) -> Void) async throws
            -> UploadedFile
        {
            try await store.upload(file, key: key, progress: progress)
        }
        func delete(key: ObjectKey) async throws { throw Surprise() }
        func readURL(for key: ObjectKey, expiresAt: Date) -> URL { store.readURL(for: key, expiresAt: expiresAt) }
        func localPath(for key: ObjectKey) -> String? { store.localPath(for: key) }
        func download(_ key: ObjectKey, to path: String) async throws { try await store.download(key, to: path) }
        func list(after: ObjectKey?, limit: Int) async throws -> [ListedObject] {
            try await store.list(after: after, limit: limit)
        }
    }

    @Test func anInternalErrorIsLoggedWithoutTheCallersToken() async throws {
        let lines = Lines()
        var logger = Logger(label: "feeds") { _ in Capture(lines: lines) }
        logger.logLevel = .debug
        try await TestServer.run(cdn: { BrokenCDN($0) }, logger: logger) { server in
            var form = MultipartForm()
            form.add("file", fileName: "a.txt", Data("hello".utf8))
            let uploaded = try await server.upload("/uploads/file", as: "alice", form: form)
            let url = try #require(uploaded.body["file"].string, "\(uploaded.text)")
            let encoded = try #require(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let reply = try await server.api(.DELETE, "/uploads/file", as: "alice", query: "&url=\(encoded)")
            #expect(reply.status == 500, "\(reply.text)")
            let logged = lines.text
            #expect(logged.contains("request failed") && logged.contains("Surprise"), "\(logged.suffix(2000))")
            // Neither the caller's token nor the signature of the URL it sent.
            #expect(logged.firstMatch(of: /eyJ[A-Za-z0-9_-]+\.eyJ/) == nil, "\(logged)")
            #expect(logged.firstMatch(of: /Signature(=|%3D)[^\[]/) == nil, "\(logged)")
        }
    }

    @Test func secretShapedTextIsScrubbed() {
        let token = "eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoiYWxpY2UifQ.c2lnbmF0dXJl"
        let line = """
            authorization: \(token) url=/cdn/k?Expires=1&Signature=abcDEF_- q=%3FExpires%3D2%26Signature%3Dzyx987%26 \
            https://b.s3.amazonaws.com/k?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=0123abc&x=1 "Authorization":"Bearer x"
            """
        let scrubbed = Redaction.scrub(line)
        for secret in [token, "abcDEF_-", "zyx987", "AKIA", "0123abc", "Bearer x"] {
            #expect(!scrubbed.contains(secret), "\(secret) in \(scrubbed)")
        }
        #expect(scrubbed.contains("Expires=1") && scrubbed.contains("x=1"))
        #expect(Redaction.scrub("an ordinary line") == "an ordinary line")
    }
}
