import Crypto
import FeedsCDN
import FeedsCore
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

/// What only an S3 store can do wrong: refuse our signature, lack the bucket, go away mid-request.
/// The pipeline itself runs on S3 in the suites parameterised by `Backend`.
@Suite struct S3StoreTests {
    func form(_ name: String, _ data: Data) -> MultipartForm {
        var form = MultipartForm()
        form.add("file", fileName: name, data)
        return form
    }

    /// Rows that say an object may exist. A store that refused the upload refuses its delete too:
    /// those rows stay 'deleting', for gc to retry, and count here as nothing stored.
    func objectRows(_ server: TestServer) async throws -> Int {
        let rows = try await server.database.query(
            "SELECT count(*) FROM cdn_objects WHERE state <> 'deleting'", logger: TestDatabase.logger)
        for try await count in rows.decode(Int.self) { return count }
        return -1
    }

    /// The test store enforces authentication, so a signing bug cannot hide behind it.
    @Test func aWrongSecretGetsSignatureDoesNotMatch() async throws {
        let bucket = try TestBucket.shared()
        var configuration = bucket.configuration
        #expect(try await S3Client(configuration: configuration).send(.GET, query: "list-type=2").status == 200)
        configuration.credentials.secretAccessKey += "x"
        let refused = try await S3Client(configuration: configuration).send(
            .PUT, key: "never/stored.txt", body: .bytes(Data("x".utf8)))
        #expect(refused.status == 403)
        #expect(S3ErrorResponse(status: refused.status, body: refused.body).code == "SignatureDoesNotMatch", "\(refused.body)")
    }

    /// Uploads, a presigned read of the store and a delete, straight through `S3CDN`.
    @Test func theCDNStoresReadsAndDeletes() async throws {
        let bucket = try await TestBucket.create()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("s3cdn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let file = directory.appendingPathComponent("data.bin")
        try bytes.write(to: file)
        let hash = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        let cdn = S3CDN(
            configuration: bucket.configuration,
            signer: URLSigner(publicURL: URL(string: "http://feeds.test")!, apiSecret: TestServer.apiSecret))
        let key = ObjectKey(fileName: "data.bin")
        let progress = ProgressLog()
        _ = try await cdn.upload(
            LocalFile(
                url: file, fileName: "data.bin", size: Int64(bytes.count), sha256: hash, mimeType: "application/octet-stream"),
            key: key, progress: { progress.record($0) })
        #expect(progress.values.first == 0 && progress.values.last == 1 && progress.values.count > 3)
        #expect(try await bucket.keys() == [key.rawValue])

        let presigned = cdn.presignedURL(for: key, notAfter: Date().addingTimeInterval(3600))
        let served = try await TestServer.send(.GET, presigned.absoluteString)
        #expect(served.status == 200 && served.data == bytes)
        #expect(served.headers.first(name: "Content-Disposition")?.hasPrefix("attachment") == true)
        let expired = cdn.presignedURL(for: key, notAfter: Date(), now: Date().addingTimeInterval(-120))
        #expect(try await TestServer.send(.GET, expired.absoluteString).status == 403)

        try await cdn.delete(key: key)
        try await cdn.delete(key: key)
        #expect(try await bucket.keys().isEmpty)
        try await cdn.checkReady()
        try await bucket.destroy()
    }

    @Test func aWrongSecretIs502WithWhatToFixAndReadyzSaysSo() async throws {
        try await TestServer.run(backend: .s3, configure: { $0.s3?.credentials.secretAccessKey = "not-the-secret" }) { server in
            let reply = try await server.upload("/uploads/file", as: "alice", form: form("a.txt", Data("a\n".utf8)))
            let body = expectAPIError(reply, status: 502, code: -1)
            #expect(body["message"].string?.contains("AWS_SECRET_ACCESS_KEY") == true, "\(reply.text)")
            #expect(try await objectRows(server) == 0)
            let ready = try await server.send(.GET, "/readyz")
            #expect(ready.status == 503)
            #expect(ready.body["message"].string?.contains("file store unreachable") == true, "\(ready.text)")
            #expect(try await server.storedObjects().isEmpty)
        }
    }

    @Test func aMissingBucketIs502AndNotReady() async throws {
        try await TestServer.run(backend: .s3, configure: { $0.s3?.bucket = "feeds-test-no-such-bucket" }) { server in
            let reply = try await server.upload("/uploads/file", as: "alice", form: form("a.txt", Data("a\n".utf8)))
            let body = expectAPIError(reply, status: 502, code: -1)
            #expect(body["message"].string?.contains("NoSuchBucket") == true, "\(reply.text)")
            #expect(try await server.send(.GET, "/readyz").status == 503)
            #expect(try await objectRows(server) == 0)
        }
    }

    @Test func aStoreThatGoesAwayMidRequestLeavesNothing() async throws {
        let endpoint = try TestBucket.configuration(bucket: "unused").endpoint
        let store = try VanishingStore(relayingTo: endpoint, vanishAfter: 1 << 20)
        defer { store.vanish() }
        try await TestServer.run(backend: .s3, configure: { $0.s3?.endpoint = store.url }) { server in
            #expect(try await server.send(.GET, "/readyz").status == 200)
            var form = MultipartForm()
            form.add(
                "activity",
                json: #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"file","file":"big"}]}"#)
            form.add("big", fileName: "big.bin", Data(repeating: 1, count: 3 << 20))
            let reply = try await server.upload("/feeds/activities", as: "alice", form: form)
            let body = expectAPIError(reply, status: 502, code: -1)
            #expect(body["message"].string?.contains("did not answer") == true, "\(reply.text)")
            #expect(try await server.send(.GET, "/readyz").status == 503)

            let rows = try await server.database.query(
                "SELECT (SELECT count(*) FROM activities), (SELECT count(*) FROM cdn_objects WHERE state <> 'deleting')",
                logger: TestDatabase.logger)
            for try await (activities, objects) in rows.decode((Int, Int).self) {
                #expect(activities == 0 && objects == 0)
            }
            #expect(try await server.storedObjects().isEmpty, "a cut-off PUT never becomes an object")
            let temp = server.uploadTempFiles
            #expect(temp.isEmpty, "left in tmp: \(temp)")
        }
    }
}

/// Progress values as they arrive.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Double] = []
    func record(_ value: Double) { lock.withLock { recorded.append(value) } }
    var values: [Double] { lock.withLock { recorded } }
}
