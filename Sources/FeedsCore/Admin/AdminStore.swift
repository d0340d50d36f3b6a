import Foundation
import Logging

/// What the admin console reads: uploads, storage totals, the settings audit list, gc runs.
public protocol AdminStore: Sendable {
    /// Uploads newest first, filtered, one page of at most `limit`.
    func uploads(_ filter: UploadFilter, limit: Int, logger: Logger) async throws -> [UploadListing]

    /// Objects and bytes by state.
    func storageTotals(logger: Logger) async throws -> [ObjectRecord.State: ObjectTotals]

    /// The latest settings changes, newest first.
    func settingsAudit(limit: Int, logger: Logger) async throws -> [SettingsAuditEntry]

    /// Records a gc run, keeping the latest `GCRun.kept`.
    func record(_ run: GCRun, logger: Logger) async throws

    /// The latest gc runs, newest first.
    func gcRuns(limit: Int, logger: Logger) async throws -> [GCRun]
}

/// A count of objects and their bytes, and since when the oldest of them has been in its state.
public struct ObjectTotals: Sendable, Equatable {
    public var objects: Int64
    public var bytes: Int64
    public var oldest: Date?

    public init(objects: Int64 = 0, bytes: Int64 = 0, oldest: Date? = nil) {
        self.objects = objects
        self.bytes = bytes
        self.oldest = oldest
    }
}

/// Which uploads to list; nil is any.
public struct UploadFilter: Sendable, Equatable {
    /// The states the console filters by: its four, each standing for states of the object's life.
    public enum StateGroup: String, Sendable, CaseIterable {
        case pending, attached, released, deleted

        /// The states of `ObjectRecord.State` this group shows.
        public var states: [ObjectRecord.State] {
            switch self {
            case .pending: [.reserved, .stored]
            case .attached: [.attached]
            case .released: [.released]
            case .deleted: [.deleting, .deleted]
            }
        }
    }

    public var owner: String?
    public var kind: ObjectRecord.Kind?
    public var state: StateGroup?
    /// Keyset cursor: only uploads older than this (time, then key).
    public var before: UploadCursor?

    public init(owner: String? = nil, kind: ObjectRecord.Kind? = nil, state: StateGroup? = nil, before: UploadCursor? = nil) {
        self.owner = owner
        self.kind = kind
        self.state = state
        self.before = before
    }
}

/// Where a page of uploads ends: the last one's creation time (microseconds) and key.
public struct UploadCursor: Sendable, Equatable {
    public var createdMicros: Int64
    public var key: String

    public init(createdMicros: Int64, key: String) {
        self.createdMicros = createdMicros
        self.key = key
    }
}

/// One upload as the console lists it.
public struct UploadListing: Sendable, Equatable {
    public var record: ObjectRecord
    public var createdAt: Date
    public var createdMicros: Int64
    /// The activity holding it, when one does.
    public var activityID: String?
    /// The comment holding it, when one does.
    public var commentID: String?

    public init(record: ObjectRecord, createdAt: Date, createdMicros: Int64, activityID: String?, commentID: String?) {
        self.record = record
        self.createdAt = createdAt
        self.createdMicros = createdMicros
        self.activityID = activityID
        self.commentID = commentID
    }
}

/// One change of the app settings: who, when, and what.
public struct SettingsAuditEntry: Sendable, Equatable {
    public var version: Int64
    public var changedAt: Date
    public var actor: String
    /// One line per setting changed (`AppSettings.differences`).
    public var changes: [String]

    public init(version: Int64, changedAt: Date, actor: String, changes: [String]) {
        self.version = version
        self.changedAt = changedAt
        self.actor = actor
        self.changes = changes
    }
}

/// One gc run and what it removed.
public struct GCRun: Sendable, Equatable {
    /// What started it.
    public enum Trigger: String, Sendable {
        case schedule, console, cli
    }

    /// How many runs the store keeps.
    public static let kept = 500

    public var trigger: Trigger
    public var startedAt: Date
    public var finishedAt: Date
    /// False when another node held the sweep.
    public var ran: Bool
    public var objects: Int
    public var failed: Int
    public var tempFiles: Int
    public var idempotencyKeys: Int
    public var orphans: Int
    /// Why it stopped, when it failed.
    public var error: String?

    public init(
        trigger: Trigger, startedAt: Date, finishedAt: Date, ran: Bool, objects: Int = 0, failed: Int = 0, tempFiles: Int = 0,
        idempotencyKeys: Int = 0, orphans: Int = 0, error: String? = nil
    ) {
        self.trigger = trigger
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.ran = ran
        self.objects = objects
        self.failed = failed
        self.tempFiles = tempFiles
        self.idempotencyKeys = idempotencyKeys
        self.orphans = orphans
        self.error = error
    }
}
