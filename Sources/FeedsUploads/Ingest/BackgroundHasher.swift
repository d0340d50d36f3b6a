import Crypto
import Dispatch
import FeedsCore
import Foundation
import NIOCore

/// SHA-256 of a file on a thread of its own, so that each chunk is hashed while the next ones
/// arrive and are written, not in line: hashing 100 MB takes 0.07 s here, a third of an upload.
/// At most `backlog` chunks wait to be hashed, so a slow hasher holds the upload back rather than
/// piling its chunks up in memory.
final class BackgroundHasher: @unchecked Sendable {
    // `hasher` is touched only by blocks on `queue`, a serial queue: one at a time, in order.
    private var hasher = SHA256()
    private let queue = DispatchQueue(label: "feeds.upload-sha256")
    private let slots: AsyncSemaphore

    init(backlog: Int = 16) {
        slots = AsyncSemaphore(permits: backlog)
    }

    func update(_ bytes: ByteBuffer) async throws {
        try await slots.acquire()
        queue.async { [self] in
            bytes.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            slots.release()
        }
    }

    /// The digest in hex, once every chunk given before is hashed.
    func finish() async -> String {
        let digest = await withCheckedContinuation { continuation in
            queue.async { [self] in continuation.resume(returning: hasher.finalize()) }
        }
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
