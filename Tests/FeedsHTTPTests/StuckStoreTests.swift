import FeedsCore
import FeedsTestSupport
import Foundation
import Synchronization
import Testing

/// A store whose calls never return and ignore cancellation, as a hung store may: the upload's
/// whole store work (the wait for an uploader slot, the tries, the clean-up) has one budget, the
/// store's timeout plus a second, and the reply does not wait for the clean-up. On the code before
/// the budget each of these requests waited for the store without end; the hang guard is what
/// fails then, and nothing here measures time.
@Suite struct StuckStoreTests {
    @Test func aStoreThatNeverAnswersCostsA504AndTheSweeperFinishesTheRest() async throws {
        let stuck = Mutex<StuckCDN?>(nil)
        try await TestServer.run(
            backend: .s3,
            configure: {
                $0.s3?.timeout = .seconds(2)
                // One slot: while a stuck call holds it, the next upload waits, and that wait is bounded too.
                $0.uploadConcurrency = 1
            },
            cdn: { inner in
                let cdn = StuckCDN(wrapping: inner)
                stuck.withLock { $0 = cdn }
                return cdn
            }
        ) { server in
            let cdn = try #require(stuck.withLock { $0 })
            let kept = try await HungStoreTests.upload(server, "kept.txt")

            cdn.stick()
            try await hangGuard("requests while the store never answers", seconds: 300) {
                var file = MultipartForm()
                file.add("file", fileName: "stuck.txt", Data("stuck\n".utf8))
                expectAPIError(try await server.upload("/uploads/file", as: "alice", form: file), status: 504, code: -1)

                // The slot is still held by the stuck call above: this one times out waiting for it.
                var form = MultipartForm()
                form.add(
                    "activity",
                    json: #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"file","file":"f"}]}"#)
                form.add("f", fileName: "post.txt", Data("post\n".utf8))
                let reply = try await server.upload("/feeds/activities", as: "alice", form: form)
                expectAPIError(reply, status: 504, code: -1)
                #expect(reply.headers["Retry-After"].first == "1")

                let delete = try await server.api(.DELETE, "/uploads/file", as: "alice", query: "&url=\(queryEncoded(kept))")
                expectAPIError(delete, status: 504, code: -1)
            }
            #expect(try await server.number("SELECT count(*)::int FROM activities") == 0)
            // Nothing that may hold bytes was forgotten: each is claimed for the sweeper.
            #expect(try await server.number("SELECT count(*)::int FROM cdn_objects WHERE state = 'deleting'") == 3)
            #expect(cdn.stuckCalls > 0)

            cdn.unstick()
            // The stuck calls go on to the store now; the sweep comes after them, as its retry delay would.
            try await eventually("the stuck calls ending") { cdn.callsInFlight == 0 }
            try await server.sweepUntilNothingIsDeleting()
            #expect(try await server.storedObjects().isEmpty, "every object was deleted, none left behind")
        }
    }
}

/// Wraps a store; after `stick()` its uploads and deletes wait, heedless of cancellation, until
/// `unstick()`, then go through.
final class StuckCDN: CDNClient {
    let store: any CDNClient
    private let state = Mutex<(stuck: Bool, calls: Int, inFlight: Int, waiting: [CheckedContinuation<Void, Never>])>(
        (false, 0, 0, []))

    init(wrapping store: any CDNClient) { self.store = store }

    func stick() { state.withLock { $0.stuck = true } }

    func unstick() {
        let waiting = state.withLock { state in
            state.stuck = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// How many calls found the store stuck.
    var stuckCalls: Int { state.withLock { $0.calls } }
    /// Uploads and deletes not yet ended.
    var callsInFlight: Int { state.withLock { $0.inFlight } }

    private func call<T>(_ work: () async throws -> T) async throws -> T {
        state.withLock { $0.inFlight += 1 }
        defer { state.withLock { $0.inFlight -= 1 } }
        await waitWhileStuck()
        return try await work()
    }

    private func waitWhileStuck() async {
        await withCheckedContinuation { continuation in
            let go = state.withLock { state in
                guard state.stuck else { return true }
                state.calls += 1
                state.waiting.append(continuation)
                return false
            }
            if go { continuation.resume() }
        }
    }

    var maxAttachmentSize: Int64 { store.maxAttachmentSize }

    func upload(_ file: LocalFile, key: ObjectKey, progress: @escaping @Sendable (Double) -> Void) async throws -> UploadedFile {
        try await call { try await store.upload(file, key: key, progress: progress) }
    }

    func delete(key: ObjectKey) async throws {
        try await call { try await store.delete(key: key) }
    }

    func readURL(for key: ObjectKey, expiresAt: Date) -> URL { store.readURL(for: key, expiresAt: expiresAt) }
    func localPath(for key: ObjectKey) -> String? { store.localPath(for: key) }
    func download(_ key: ObjectKey, to path: String) async throws { try await store.download(key, to: path) }
    func list(after: ObjectKey?, limit: Int) async throws -> [ListedObject] { try await store.list(after: after, limit: limit) }
}
