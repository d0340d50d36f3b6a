import Foundation

/// A user's membership of a feed: a role, and whether they are a member or invited (`pending`,
/// until they accept or reject). Members read a `members` feed as its owner does.
public struct FeedMember: Sendable, Hashable {
    public enum Status: String, Sendable, CaseIterable {
        case member, pending, rejected
    }

    public var feed: FeedID
    public var user: User
    public var role: String
    public var status: Status
    public var custom: JSONObject
    public var createdAt: Date
    public var updatedAt: Date
    public var inviteAcceptedAt: Date?
    public var inviteRejectedAt: Date?
    /// The level they hold (`MembershipLevel`), if any.
    public var membershipLevel: MembershipLevel?

    public init(
        feed: FeedID, user: User, role: String, status: Status, custom: JSONObject, createdAt: Date, updatedAt: Date,
        inviteAcceptedAt: Date?, inviteRejectedAt: Date?, membershipLevel: MembershipLevel? = nil
    ) {
        (self.feed, self.user, self.role, self.status, self.custom) = (feed, user, role, status, custom)
        (self.createdAt, self.updatedAt, self.inviteAcceptedAt, self.inviteRejectedAt) =
            (createdAt, updatedAt, inviteAcceptedAt, inviteRejectedAt)
        self.membershipLevel = membershipLevel
    }

    /// Stream's role for a member no role was given.
    public static let defaultRole = "feed_member"
}

/// One member of UpdateFeedMembers, checked: a user id, a role (letters, digits, `_`, `-`), custom
/// data, whether they are invited (pending) rather than added, and the membership level to give
/// them (an id; empty takes theirs away; nil leaves it).
public struct FeedMemberInput: Sendable, Equatable {
    public var userID: String
    public var role: String?
    public var custom: JSONObject?
    public var invite: Bool
    public var membershipLevel: String?

    public init(
        userID: String, role: String?, custom: JSONObject?, invite: Bool, membershipLevel: String? = nil, field: String
    ) throws(FeedsError) {
        if let membershipLevel, !membershipLevel.isEmpty {
            do { try MembershipLevelChange.checkID(membershipLevel) } catch {
                throw .input(error.message, field: field + "membership_level")
            }
        }
        self.membershipLevel = membershipLevel
        guard (1...255).contains(userID.utf8.count) else {
            throw .input("user_id is 1 to 255 characters", field: field + "user_id")
        }
        if let role {
            guard (1...64).contains(role.utf8.count), role.utf8.allSatisfy(FeedID.isAllowed) else {
                throw .input("role is 1 to 64 letters, digits, '_' or '-'", field: field + "role")
            }
        }
        if let custom, JSONValue.text(custom).utf8.count > 5_000 {
            throw .input("a member's custom data is at most 5,000 bytes of JSON", field: field + "custom")
        }
        (self.userID, self.role, self.custom, self.invite) = (userID, role, custom, invite)
    }
}

/// UpdateFeedMembers' `operation`: add or change the members given, remove them, or make the
/// members exactly those given.
public enum MemberOperation: String, Sendable {
    case upsert, remove, set
}

/// What UpdateFeedMembers changed.
public struct MemberChange: Sendable, Equatable {
    public var added: [FeedMember]
    public var updated: [FeedMember]
    public var removedIDs: [String]

    public init(added: [FeedMember], updated: [FeedMember], removedIDs: [String]) {
        (self.added, self.updated, self.removedIDs) = (added, updated, removedIDs)
    }

    /// Most members one request names.
    public static let maxMembers = 100
}

/// A page of a feed's members, oldest membership first.
public struct MemberPage: Sendable, Equatable {
    public var members: [FeedMember]
    public var next: String?

    public init(members: [FeedMember], next: String?) { (self.members, self.next) = (members, next) }
}
