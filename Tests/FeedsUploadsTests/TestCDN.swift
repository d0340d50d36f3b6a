import FeedsCore
import Foundation
import Synchronization

@testable import FeedsUploads

/// A CDN in memory that records what the uploader does to it: uploads in flight (and their peak),
/// attempts per key, stored and deleted keys; and misbehaves on request.
final class TestCDN: CDNClient {
    /// How uploads behave; set before the batch starts.
    struct Script: Sendable {
        /// How long an upload takes, unless `delays` names its key.
        var delay: ClosedRange<Duration> = .zero ... .zero
        var delays: [ObjectKey: Duration] = [:]
        /// Keys whose first N attempts fail with a transient error.
        var transientFailures: [ObjectKey: Int] = [:]
        /// Keys that always fail with a permanent error.
        var permanentFailures: Set<ObjectKey> = []
    }

    private struct State {
        var inFlight = 0
        var peakInFlight = 0
        var attempts: [ObjectKey: Int] = [:]
        var stored: Set<ObjectKey> = []
        var deleted: [ObjectKey] = []
    }

    let maxAttachmentSize: Int64 = 100 << 20
    private let script: Script
    private let state = Mutex(State())

    init(_ script: Script = Script()) {
        self.script = script
    }

    var peakInFlight: Int { state.withLock { $0.peakInFlight } }
    var attempts: [ObjectKey: Int] { state.withLock { $0.attempts } }
    var stored: Set<ObjectKey> { state.withLock { $0.stored } }
    var deleted: [ObjectKey] { state.withLock { $0.deleted } }
    var attempted: Set<ObjectKey> { Set(attempts.keys) }

    func upload(_ file: LocalFile, key: ObjectKey, progress: @escaping @Sendable (Double) -> Void) async throws -> UploadedFile {
        let attempt = state.withLock { state in
            state.inFlight += 1
            state.peakInFlight = max(state.peakInFlight, state.inFlight)
            state.attempts[key, default: 0] += 1
            return state.attempts[key]!
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        progress(0)
        let delay = script.delays[key] ?? randomDuration(in: script.delay)
        if delay > .zero { try await Task.sleep(for: delay) }
        if script.permanentFailures.contains(key) { throw CDNError(transient: false, "refused \(key)") }
        if attempt <= script.transientFailures[key, default: 0] { throw CDNError(transient: true, "busy") }
        progress(0.5)
        progress(1)
        state.withLock { _ = $0.stored.insert(key) }
        return UploadedFile(key: key, size: file.size, mimeType: file.mimeType)
    }

    func delete(key: ObjectKey) async throws {
        // Like a real delete, it suspends; like the contract asks, it never checks cancellation,
        // so the uploader's cleanup completes inside a cancelled task.
        await Task.yield()
        state.withLock { state in
            state.deleted.append(key)
            state.stored.remove(key)
        }
    }

    func localPath(for key: ObjectKey) -> String? { nil }

    /// The uploader's tests list nothing.
    func list(after: ObjectKey?, limit: Int) async throws -> [ListedObject] { [] }

    func download(_ key: ObjectKey, to path: String) async throws {
        throw CDNError(transient: false, "the test store keeps no bytes")
    }

    func readURL(for key: ObjectKey, expiresAt: Date) -> URL {
        URL(string: "https://cdn.test/\(key)")!
    }

    private func randomDuration(in range: ClosedRange<Duration>) -> Duration {
        let span = (range.upperBound - range.lowerBound) / Duration.milliseconds(1)
        return range.lowerBound + .milliseconds(Double.random(in: 0...span))
    }
}

/// Builders for upload batches.
enum UploadFixture {
    /// `count` items, index i at position i, each under a fresh key and with a payload naming it.
    static func items(_ count: Int) -> [AttachmentUploader.Item] {
        (0..<count).map { index in
            let file = LocalFile(
                url: URL(fileURLWithPath: "/tmp/upload-\(index)"), fileName: "f\(index).png", size: Int64(100 + index),
                sha256: String(repeating: "0", count: 64), mimeType: "image/png"
            )
            return .init(
                index: index, file: file, key: ObjectKey(fileName: file.fileName),
                payload: ["type": .string("image"), "n": .number(Double(index))]
            )
        }
    }

    /// Retries without real waiting.
    static let fastRetries = RetryPolicy(attempts: 3, baseDelay: .microseconds(100), maxDelay: .milliseconds(1))
}
