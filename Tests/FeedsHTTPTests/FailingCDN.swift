import FeedsCore
import Foundation
import Synchronization

/// A store (the local disk or S3) failing permanently on its Nth upload, and refusing deletes
/// when asked to, until told otherwise.
final class FailingCDN: CDNClient {
    let store: any CDNClient
    let failOn: Int
    private let uploads = Mutex(0)
    private let refusing: Mutex<Bool>

    init(wrapping store: any CDNClient, failOnUpload: Int, refusingDeletes: Bool = false) {
        self.store = store
        failOn = failOnUpload
        refusing = Mutex(refusingDeletes)
    }

    func deletesWork() { refusing.withLock { $0 = false } }

    var maxAttachmentSize: Int64 { store.maxAttachmentSize }

    func upload(_ file: LocalFile, key: ObjectKey, progress: @escaping @Sendable (Double) -> Void) async throws -> UploadedFile {
        let count = uploads.withLock { count in
            count += 1
            return count
        }
        if count == failOn { throw CDNError(transient: false, "store refused") }
        return try await store.upload(file, key: key, progress: progress)
    }

    func delete(key: ObjectKey) async throws {
        if refusing.withLock({ $0 }) { throw CDNError(transient: false, "delete refused") }
        try await store.delete(key: key)
    }

    func readURL(for key: ObjectKey, expiresAt: Date) -> URL { store.readURL(for: key, expiresAt: expiresAt) }
    func localPath(for key: ObjectKey) -> String? { store.localPath(for: key) }
    func download(_ key: ObjectKey, to path: String) async throws { try await store.download(key, to: path) }
    func list(after: ObjectKey?, limit: Int) async throws -> [ListedObject] { try await store.list(after: after, limit: limit) }
}
