import FeedsCore
import FeedsPostgres
import FeedsTestSupport
import FeedsUploads
import Foundation
import PostgresNIO
import Synchronization
import Testing

/// A store that loses the reply to a PUT, and finishes the PUT only after our delete of it: the
/// worst order a hung or flaky store can give. The object's row must outlive that delete, so that
/// the sweeper's second delete finds the bytes that landed late: no orphan in the bucket.
final class LateLandingCDN: CDNClient {
    let store: any CDNClient
    /// The bytes of each upload whose reply was "lost", by key, until they land.
    private let inFlight = Mutex<[ObjectKey: (file: LocalFile, bytes: Data)]>([:])
    private let landings = Mutex(0)
    /// How many times bytes landed after a delete.
    var landed: Int { landings.withLock { $0 } }

    init(wrapping store: any CDNClient) { self.store = store }

    var maxAttachmentSize: Int64 { store.maxAttachmentSize }

    func upload(_ file: LocalFile, key: ObjectKey, progress: @escaping @Sendable (Double) -> Void) async throws -> UploadedFile {
        let bytes = try Data(contentsOf: file.url)
        inFlight.withLock { $0[key] = (file, bytes) }
        throw CDNError(transient: true, "the store did not answer the PUT")
    }

    /// Deletes, and then the PUT it raced with lands: after each delete the failed request makes
    /// (the uploader's, then the pipeline's), as if the store finished the PUT last.
    func delete(key: ObjectKey) async throws {
        try await store.delete(key: key)
        guard let (file, bytes) = inFlight.withLock({ $0[key] }) else { return }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("late-\(UUID().uuidString)")
        try bytes.write(to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        var landed = file
        landed.url = copy
        _ = try await store.upload(landed, key: key, progress: { _ in })
        landings.withLock { $0 += 1 }
    }

    func readURL(for key: ObjectKey, expiresAt: Date) -> URL { store.readURL(for: key, expiresAt: expiresAt) }
    func localPath(for key: ObjectKey) -> String? { store.localPath(for: key) }
    func download(_ key: ObjectKey, to path: String) async throws { try await store.download(key, to: path) }
    func list(after: ObjectKey?, limit: Int) async throws -> [ListedObject] { try await store.list(after: after, limit: limit) }
}

@Suite struct LateLandingUploadTests {
    @Test(arguments: Backend.allCases) func aPutThatLandsAfterItsDeleteIsSweptNotOrphaned(backend: Backend) async throws {
        let late = Mutex<LateLandingCDN?>(nil)
        try await TestServer.run(
            backend: backend,
            cdn: { inner in
                let cdn = LateLandingCDN(wrapping: inner)
                late.withLock { $0 = cdn }
                return cdn
            }
        ) { server in
            let cdn = try #require(late.withLock { $0 })
            var form = MultipartForm()
            form.add("file", fileName: "late.txt", Data("late\n".utf8))
            expectAPIError(try await server.upload("/uploads/file", as: "alice", form: form), status: 502, code: -1)
            // The uploader's delete comes before the reply, the pipeline's after it.
            try await eventually("both deletes and their late landings") { cdn.landed == 2 }

            // The bytes landed after the delete; the row that names them is still there.
            #expect(try await server.storedObjects().count == 1)
            let rows = "SELECT count(*)::int FROM cdn_objects WHERE file_name = 'late.txt' AND state = 'deleting'"
            #expect(try await server.number(PostgresQuery(unsafeSQL: rows)) == 1)

            // Past the retry delay the sweeper deletes again, through the real store.
            try await server.database.query(
                "UPDATE cdn_objects SET updated_at = now() - interval '1 hour'", logger: TestDatabase.logger)
            let report = try await server.sweep()
            #expect(report.objects == 1 && report.failed == 0)
            #expect(try await server.storedObjects().isEmpty)
        }
    }
}
