import Foundation
import Logging

/// The record of an object in the CDN, by key.
public struct ObjectRecord: Sendable, Hashable {
    /// Where an object is in its life.
    public enum State: String, Sendable {
        /// Reserved; bytes may be on their way. Swept when old.
        case pending
        /// A standalone upload, not attached yet. Swept after the unattached TTL.
        case uploaded
        /// Part of an activity.
        case attached
        /// Deleted: gone from the CDN, never returned again.
        case deleted
    }

    /// Which upload endpoint or attachment type it came through.
    public enum Kind: String, Sendable {
        case image, file
    }

    public var key: ObjectKey
    public var kind: Kind
    /// The uploading user; nil for the server.
    public var ownerID: String?
    public var fileName: String
    public var mimeType: String
    public var size: Int64
    public var sha256: String
    public var width: Int?
    public var height: Int?
    public var state: State

    public init(
        key: ObjectKey, kind: Kind, ownerID: String?, fileName: String, mimeType: String, size: Int64, sha256: String,
        width: Int? = nil, height: Int? = nil, state: State = .pending
    ) {
        self.key = key
        self.kind = kind
        self.ownerID = ownerID
        self.fileName = fileName
        self.mimeType = mimeType
        self.size = size
        self.sha256 = sha256
        self.width = width
        self.height = height
        self.state = state
    }
}

/// The bookkeeping of CDN objects, so that nothing stored is ever unknown or half-written.
public protocol ObjectStore: Sendable {
    /// Records objects as pending, before their bytes are sent.
    func reserve(_ objects: [ObjectRecord], logger: Logger) async throws

    /// Marks standalone uploads as done (they await attachment or the unattached TTL).
    func markUploaded(_ keys: [ObjectKey], logger: Logger) async throws

    /// Forgets reserved objects whose upload failed (their bytes were deleted).
    func forget(_ keys: [ObjectKey], logger: Logger) async throws

    /// An object's record, deleted ones included.
    func object(_ key: ObjectKey, logger: Logger) async throws -> ObjectRecord?

    /// Marks an object deleted and returns its record as it was; nil when unknown.
    func markDeleted(_ key: ObjectKey, logger: Logger) async throws -> ObjectRecord?

    /// Objects to sweep: pending longer than `pendingTTL`, or uploaded and unattached longer than
    /// `unattachedTTL` (nil keeps them), at most `limit`.
    func sweepCandidates(pendingTTL: Duration, unattachedTTL: Duration?, limit: Int, logger: Logger) async throws -> [ObjectKey]

    /// Runs `body` if no other node is sweeping, and says whether it ran.
    func exclusively(logger: Logger, _ body: @Sendable () async throws -> Void) async throws -> Bool
}
