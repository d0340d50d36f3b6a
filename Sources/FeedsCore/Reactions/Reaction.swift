import Foundation

/// A user's reaction of one type to an activity or a comment: one per user, object and type.
public struct Reaction: Sendable, Hashable {
    /// The activity reacted to, or the one the comment reacted to is on.
    public var activityID: String
    /// The comment reacted to, if it is a comment.
    public var commentID: String?
    public var type: String
    public var user: User
    public var custom: JSONObject
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        activityID: String, commentID: String? = nil, type: String, user: User, custom: JSONObject, createdAt: Date,
        updatedAt: Date
    ) {
        self.activityID = activityID
        self.commentID = commentID
        self.type = type
        self.user = user
        self.custom = custom
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// The reactions of one type to an activity, counted.
public struct ReactionGroup: Sendable, Hashable {
    public var count: Int
    public var firstReactionAt: Date
    public var lastReactionAt: Date

    public init(count: Int, firstReactionAt: Date, lastReactionAt: Date) {
        self.count = count
        self.firstReactionAt = firstReactionAt
        self.lastReactionAt = lastReactionAt
    }
}

/// What an activity carries of its reactions, bookmarks and comments: counts for everyone, and
/// for the reader their own reactions and bookmarks.
public struct ActivityEngagement: Sendable, Hashable {
    public var reactionCount = 0
    public var reactionGroups: [String: ReactionGroup] = [:]
    /// The newest reactions, at most `ActivityEngagement.latestLimit`.
    public var latestReactions: [Reaction] = []
    public var ownReactions: [Reaction] = []
    public var bookmarkCount = 0
    public var ownBookmarks: [Bookmark] = []
    public var commentCount = 0
    /// How many live activities share it (`parent_id`).
    public var shareCount = 0

    /// Stream's `popularity`: reactions, comments twice, bookmarks three times (the popular
    /// selector's and the rankings' measure too).
    public var popularity: Int { reactionCount + 2 * commentCount + 3 * bookmarkCount }

    /// How many of the newest reactions an activity carries.
    public static let latestLimit = 5

    public init() {}
}

/// AddActivityReaction's input, checked.
public struct ReactionInput: Sendable, Hashable {
    public var type: String
    public var custom: JSONObject
    /// Removes the user's reactions of other types to the activity first.
    public var enforceUnique: Bool

    public static let maxTypeLength = 64
    /// The most reaction types one user keeps on one activity or comment.
    public static let maxTypesPerUser = 25

    /// The refusal of a reaction past `maxTypesPerUser`.
    public static var tooManyTypes: FeedsError {
        .input(
            "a user may keep at most \(maxTypesPerUser) reaction types on one activity or comment; remove one first",
            field: "type")
    }

    public init(type: String, custom: JSONObject?, enforceUnique: Bool?) throws(FeedsError) {
        self.type = try Self.checkedType(type, field: "type")
        self.custom = custom ?? [:]
        self.enforceUnique = enforceUnique ?? false
    }

    /// A reaction type: 1 to 64 letters, digits, `_` or `-` (it is a path segment of DeleteActivityReaction).
    public static func checkedType(_ type: String, field: String) throws(FeedsError) -> String {
        guard (1...maxTypeLength).contains(type.utf8.count), type.utf8.allSatisfy(FeedID.isAllowed) else {
            throw .input("\(field) is 1 to \(maxTypeLength) letters, digits, _ or -", field: field)
        }
        return type
    }
}
