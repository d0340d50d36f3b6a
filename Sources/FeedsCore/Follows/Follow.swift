import Foundation

/// One feed following another, with both feeds as they are after the change that returned it.
public struct Follow: Sendable, Hashable {
    /// Accepted follows copy activities and count; pending ones wait for the target's owner.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case accepted, pending, rejected
    }

    public var source: Feed
    public var target: Feed
    public var status: Status
    public var pushPreference: String
    public var followerRole: String
    public var custom: JSONObject
    public var createdAt: Date
    public var updatedAt: Date
    public var requestAcceptedAt: Date?
    public var requestRejectedAt: Date?

    public init(
        source: Feed, target: Feed, status: Status, pushPreference: String, followerRole: String, custom: JSONObject,
        createdAt: Date, updatedAt: Date, requestAcceptedAt: Date?, requestRejectedAt: Date?
    ) {
        self.source = source
        self.target = target
        self.status = status
        self.pushPreference = pushPreference
        self.followerRole = followerRole
        self.custom = custom
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.requestAcceptedAt = requestAcceptedAt
        self.requestRejectedAt = requestRejectedAt
    }
}

/// What a Follow request asks for, checked: two different feeds of known groups.
public struct FollowInput: Sendable, Hashable {
    public var source: FeedID
    public var target: FeedID
    /// How many of the target's newest activities to copy; nil takes `FollowInput.maxCopyLimit`.
    public var copyLimit: Int?
    /// Set by the server only; a user's follow is accepted or pending as the target's visibility says.
    public var status: Follow.Status?
    public var pushPreference: String?
    public var custom: JSONObject?

    /// The most a follow copies, and what it copies when the request names no limit (Stream's
    /// "unlimited" would let one follow copy a feed of millions).
    public static let maxCopyLimit = 1000
    /// Follows whose copies a request makes before it answers (so the timeline has them); a
    /// larger batch answers at once and leaves its copies to the fan-out workers.
    public static let copiedBeforeAnswer = 25
    /// The most activities one request's follows copy in all: 1,000 follows copying 1,000 each
    /// would be a million rows from one call.
    public static let maxCopiesPerRequest = 100_000

    /// `inputs` with their copy limits lowered alike, when needed, so that together they copy at
    /// most `maxCopiesPerRequest`.
    public static func bounded(_ inputs: [FollowInput]) -> [FollowInput] {
        let total = inputs.reduce(0) { $0 + ($1.copyLimit ?? maxCopyLimit) }
        guard total > maxCopiesPerRequest else { return inputs }
        let each = maxCopiesPerRequest / inputs.count
        return inputs.map { input in
            var bounded = input
            bounded.copyLimit = min(input.copyLimit ?? maxCopyLimit, each)
            return bounded
        }
    }

    public init(
        source: String, target: String, copyLimit: Int? = nil, status: Follow.Status? = nil, pushPreference: String? = nil,
        custom: JSONObject? = nil, field: String = ""
    ) throws(FeedsError) {
        let source = try FeedID(source, field: field + "source")
        let target = try FeedID(target, field: field + "target")
        guard source != target else { throw .input("a feed cannot follow itself", field: field + "target") }
        if let copyLimit, !(0...Self.maxCopyLimit).contains(copyLimit) {
            throw .input("activity_copy_limit must be between 0 and \(Self.maxCopyLimit)", field: field + "activity_copy_limit")
        }
        self.source = source
        self.target = target
        self.copyLimit = copyLimit
        self.status = status
        self.pushPreference = pushPreference
        self.custom = custom
    }
}

extension FollowInput {
    /// The source feeds a follow makes when they do not exist yet: a user's own feeds of the
    /// built-in groups (`timeline:<them>`), and for the server any built-in group's feed; each is
    /// owned by the user its id names. In `fid` order, the order writes lock feeds in.
    public static func sourcesMadeOnFollow(_ inputs: [FollowInput], by principal: Principal) -> [FeedID] {
        Set(inputs.map(\.source))
            .filter { FeedGroup.builtIn.contains($0.group) && (principal.userID == nil || principal.userID == $0.id) }
            .sorted { $0.description < $1.description }
    }
}

/// UpdateFollow's change; what it leaves nil stays as it is.
public struct FollowChange: Sendable, Hashable {
    public var custom: JSONObject?
    public var pushPreference: String?
    public var followerRole: String?
    /// The status the caller believes the follow has: a status is changed by AcceptFollow and
    /// RejectFollow only, so another one is refused.
    public var status: Follow.Status?

    public init(custom: JSONObject?, pushPreference: String?, followerRole: String?, status: Follow.Status? = nil)
        throws(FeedsError)
    {
        if let pushPreference, !["all", "none"].contains(pushPreference) {
            throw .input("push_preference is all or none", field: "push_preference")
        }
        if let followerRole, followerRole.utf8.count > 255 {
            throw .input("follower_role takes at most 255 characters", field: "follower_role")
        }
        (self.custom, self.pushPreference, self.followerRole, self.status) = (custom, pushPreference, followerRole, status)
    }

    /// Changes the source feed's owner makes (the follower's own settings).
    public var byFollower: Bool { custom != nil || pushPreference != nil }
}

/// A follow to end, and whether the source keeps what it copied (`keep_history`).
public struct UnfollowPair: Sendable, Hashable {
    public var source: FeedID
    public var target: FeedID
    public var keepHistory: Bool

    public init(source: FeedID, target: FeedID, keepHistory: Bool = false) {
        (self.source, self.target, self.keepHistory) = (source, target, keepHistory)
    }

    /// Stream's bound on an unfollow batch.
    public static let maxBatch = 1000
}
