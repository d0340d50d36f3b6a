import Foundation

/// Where uploaded bytes go: local disk by default, any S3-compatible store in production.
/// A new backend is one type conforming to this.
public protocol CDNClient: Sendable {
    /// The largest object this backend accepts.
    var maxAttachmentSize: Int64 { get }

    /// Stores `file` under `key`, reporting progress from 0 to 1. Throws `CDNError`.
    func upload(_ file: LocalFile, key: ObjectKey, progress: @escaping @Sendable (Double) -> Void) async throws -> UploadedFile

    /// Removes the object; removing one that is gone is not an error.
    func delete(key: ObjectKey) async throws

    /// A URL to read the object, signed, valid until `expiresAt`; made afresh on every read.
    func readURL(for key: ObjectKey, expiresAt: Date) -> URL

    /// The path of a file on this machine holding the object's bytes, when this backend keeps
    /// them here (resizes read it in place); nil for a remote store.
    func localPath(for key: ObjectKey) -> String?

    /// Copies the object's bytes to `path` on this machine (resizes of a remote store's images
    /// start from such a copy).
    func download(_ key: ObjectKey, to path: String) async throws

    /// Throws a `CDNError` when the store cannot be used now (unreachable, refusing our
    /// credentials, no such bucket); `/readyz` asks.
    func checkReady() async throws

    /// Up to `limit` stored objects in key order, after `after` (nil: from the first), for the
    /// reconciliation sweep to find objects no record names. Throws `CDNError`.
    func list(after: ObjectKey?, limit: Int) async throws -> [ListedObject]
}

/// An object as a store's listing shows it.
public struct ListedObject: Sendable, Hashable {
    public var key: ObjectKey
    /// When the store last wrote it.
    public var modified: Date

    public init(key: ObjectKey, modified: Date) {
        self.key = key
        self.modified = modified
    }
}

extension CDNClient {
    /// A backend with nothing to reach is always ready.
    public func checkReady() async throws {}
}

/// A CDN failure, sorted by whether trying again may help.
public struct CDNError: Error, Sendable, CustomStringConvertible {
    /// Timeouts, 5xx, throttling, connection resets: the uploader retries these.
    public var isTransient: Bool
    /// The store did not answer in time (the client gets 504, not 502).
    public var timedOut: Bool
    /// What failed, for the log and the client's 502.
    public var message: String

    /// A failure that is worth retrying when `transient`.
    public init(transient: Bool, timedOut: Bool = false, _ message: String) {
        self.isTransient = transient
        self.timedOut = timedOut
        self.message = message
    }

    /// The message with its kind.
    public var description: String { "\(isTransient ? "transient" : "permanent") CDN error: \(message)" }
}
