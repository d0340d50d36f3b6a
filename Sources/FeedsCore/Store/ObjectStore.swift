import Foundation
import Logging

/// The record of an object in the CDN, by key.
public struct ObjectRecord: Sendable, Hashable {
    /// Where an object is in its life. Every move is one conditional UPDATE in the store, from
    /// the states named here to the next: reserved → stored → attached ⇄ released → deleting →
    /// deleted, and reserved, stored or released → deleting when swept or deleted by a client.
    public enum State: String, Sendable, CaseIterable {
        /// A row written before any byte is sent; the bytes may be on their way. Swept when old.
        case reserved
        /// A standalone upload, not attached yet. Swept after the unattached TTL.
        case stored
        /// Held by at least one attachment.
        case attached
        /// No attachment holds it any more (its activity or attachment is gone). Swept after a grace period.
        case released
        /// Claimed for deletion: its bytes may or may not still be in the store. The row stays
        /// until the store confirms the delete, and the sweeper retries a delete that failed.
        case deleting
        /// Gone from the store; never served or linked again.
        case deleted

        /// Whether a new attachment may take the object in this state.
        public var isLinkable: Bool { self == .stored || self == .attached || self == .released }
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
    /// A video's or audio file's measures, when ffprobe read it.
    public var media: Media?
    public var state: State

    /// What ffprobe measured of a video or audio file, kept so that linking it by URL later
    /// describes it as an upload with its activity does.
    public struct Media: Sendable, Hashable, Codable {
        /// Seconds.
        public var duration: Double?
        public var codec: String?

        public init(duration: Double?, codec: String?) {
            (self.duration, self.codec) = (duration, codec)
        }

        /// Writes the measures into an attachment's `custom`, over what a client put there.
        public func write(into custom: inout JSONObject) {
            if let duration { custom["duration"] = .number((duration * 1000).rounded() / 1000) }
            if let codec { custom["codec"] = .string(codec) }
        }
    }

    public init(
        key: ObjectKey, kind: Kind, ownerID: String?, fileName: String, mimeType: String, size: Int64, sha256: String,
        width: Int? = nil, height: Int? = nil, media: Media? = nil, state: State = .reserved
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
        self.media = media
        self.state = state
    }
}

/// The bookkeeping of CDN objects, so that nothing stored is ever unknown or half-written.
public protocol ObjectStore: Sendable {
    /// Records objects as reserved, before their bytes are sent.
    func reserve(_ objects: [ObjectRecord], logger: Logger) async throws

    /// Marks reserved standalone uploads stored (they await attachment or the unattached TTL),
    /// recording the idempotent reply in the same transaction when `recording` is given.
    func markStored(_ keys: [ObjectKey], recording: IdempotentRecord<Void>?, logger: Logger) async throws

    /// Forgets reserved or deleting objects whose bytes the store confirmed gone.
    func forget(_ keys: [ObjectKey], logger: Logger) async throws

    /// The records of `keys` that exist, deleted ones included.
    func objects(_ keys: [ObjectKey], logger: Logger) async throws -> [ObjectKey: ObjectRecord]

    /// Claims objects for deletion (any state but deleted → deleting) and returns their records
    /// as they were; deleted and unknown keys are left out.
    func claimForDeletion(_ keys: [ObjectKey], logger: Logger) async throws -> [ObjectRecord]

    /// Marks claimed objects deleted, once the store confirmed their bytes gone.
    func markDeleted(_ keys: [ObjectKey], logger: Logger) async throws

    /// Claims objects to sweep (→ deleting), at most `limit`, oldest first: reserved longer than
    /// `pendingTTL`, stored and unattached longer than `unattachedTTL` (nil keeps them), released
    /// longer than `releasedTTL`, and deletes that failed more than `retryAfter` ago.
    func claimSweepable(
        pendingTTL: Duration, unattachedTTL: Duration?, releasedTTL: Duration, retryAfter: Duration, limit: Int,
        logger: Logger
    ) async throws -> [ObjectKey]

    /// What `claimSweepable` would claim now (without its limit), by state, claiming nothing:
    /// what the next gc would delete.
    func sweepable(
        pendingTTL: Duration, unattachedTTL: Duration?, releasedTTL: Duration, retryAfter: Duration, logger: Logger
    ) async throws -> [ObjectRecord.State: ObjectTotals]

    /// Runs `body` if no other node is sweeping, and says whether it ran.
    func exclusively(logger: Logger, _ body: @Sendable () async throws -> Void) async throws -> Bool
}

extension ObjectStore {
    /// One object's record, deleted ones included.
    public func object(_ key: ObjectKey, logger: Logger) async throws -> ObjectRecord? {
        try await objects([key], logger: logger)[key]
    }
}
