import Foundation

/// A comment on an activity, or a reply to one.
public struct Comment: Sendable, Hashable {
    public var id: String
    public var activityID: String
    public var parentID: String?
    public var depth: Int
    public var user: User
    public var text: String?
    public var custom: JSONObject
    public var mentionedUserIDs: [String]
    public var attachments: [StoredAttachment]
    public var replyCount: Int
    public var createdAt: Date
    public var updatedAt: Date
    public var editedAt: Date?
    public var deletedAt: Date?
    /// Its reactions: counts, the newest, and the reader's own.
    public var reactionCount = 0
    /// The people who bookmarked it.
    public var bookmarkCount = 0
    public var reactionGroups: [String: ReactionGroup] = [:]
    public var latestReactions: [Reaction] = []
    public var ownReactions: [Reaction] = []

    public init(
        id: String, activityID: String, parentID: String?, depth: Int, user: User, text: String?, custom: JSONObject,
        mentionedUserIDs: [String], attachments: [StoredAttachment], replyCount: Int, createdAt: Date, updatedAt: Date,
        editedAt: Date?, deletedAt: Date?
    ) {
        self.id = id
        self.activityID = activityID
        self.parentID = parentID
        self.depth = depth
        self.user = user
        self.text = text
        self.custom = custom
        self.mentionedUserIDs = mentionedUserIDs
        self.attachments = attachments
        self.replyCount = replyCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.editedAt = editedAt
        self.deletedAt = deletedAt
    }
}

/// AddComment's input, checked: on an activity, or a reply to a comment (`parentID`).
public struct CommentDraft: Sendable, Hashable {
    public var id: String
    /// The activity commented on; for a reply, found from the parent when not given.
    public var activityID: String?
    public var parentID: String?
    public var userID: String
    public var text: String?
    public var custom: JSONObject
    public var mentionedUserIDs: [String]
    public var attachments: [StoredAttachment]

    public static let maxTextBytes = 10_000
    public static let maxAttachments = 10
    /// Replies nest at most this deep (a comment on the activity is depth 0).
    public static let maxDepth = 5
    /// AddCommentsBatch adds at most this many at once.
    public static let maxBatch = 100

    public init(
        id: String?, activityID: String?, parentID: String?, userID: String, text: String?, custom: JSONObject?,
        mentionedUserIDs: [String]?, attachments: [StoredAttachment], filesToCome: Int = 0
    ) throws(FeedsError) {
        if let id, !(1...255).contains(id.utf8.count) { throw .input("id is 1 to 255 bytes", field: "id") }
        self.id = id ?? UUID().lowercasedString
        guard activityID != nil || parentID != nil else {
            throw .input("name the activity (object_id) or the comment replied to (parent_id)", field: "object_id")
        }
        for (value, field) in [(activityID, "object_id"), (parentID, "parent_id")] {
            if let value, !(1...255).contains(value.utf8.count) { throw .input("\(field) is 1 to 255 bytes", field: field) }
        }
        self.activityID = activityID
        self.parentID = parentID
        self.userID = userID
        try Self.check(text: text, mentions: mentionedUserIDs, attachments: attachments)
        guard text?.isEmpty == false || !attachments.isEmpty || filesToCome > 0 else {
            throw .input("a comment needs text or attachments", field: "comment")
        }
        self.text = text
        self.custom = custom ?? [:]
        self.mentionedUserIDs = mentionedUserIDs ?? []
        self.attachments = attachments
    }

    /// The bounds AddComment and UpdateComment share.
    public static func check(text: String?, mentions: [String]?, attachments: [StoredAttachment]) throws(FeedsError) {
        if let text, text.utf8.count > maxTextBytes { throw .input("comment is at most \(maxTextBytes) bytes", field: "comment") }
        _ = try Mentions.checked(mentions)
        guard attachments.count <= maxAttachments else {
            throw .input("a comment takes at most \(maxAttachments) attachments", field: "attachments")
        }
    }
}

/// What UpdateComment changes; nil leaves a field as it is.
public struct CommentChange: Sendable, Hashable {
    public var text: String?
    public var custom: JSONObject?
    public var mentionedUserIDs: [String]?
    public var attachments: [StoredAttachment]?
    /// UpdateCommentPartial's `custom.KEY`s, set and unset on the custom data as it is when the
    /// comment is locked (nil: `custom` as above).
    public var customPatch: (set: JSONObject, unset: [String])?

    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.text, lhs.custom, lhs.mentionedUserIDs, lhs.attachments) == (rhs.text, rhs.custom, rhs.mentionedUserIDs, rhs.attachments)
            && lhs.customPatch?.set == rhs.customPatch?.set && lhs.customPatch?.unset == rhs.customPatch?.unset
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(custom)
        hasher.combine(mentionedUserIDs)
        hasher.combine(attachments)
    }

    /// The custom data after this change, from what it is now.
    public func custom(from current: JSONObject) -> JSONObject? {
        guard let patch = customPatch else { return custom }
        var merged = custom ?? current
        for (key, value) in patch.set { merged[key] = value }
        for key in patch.unset { merged[key] = nil }
        return merged
    }

    public init(text: String?, custom: JSONObject?, mentionedUserIDs: [String]?, attachments: [StoredAttachment]?)
        throws(FeedsError)
    {
        try CommentDraft.check(text: text, mentions: mentionedUserIDs, attachments: attachments ?? [])
        self.text = text
        self.custom = custom
        self.mentionedUserIDs = mentionedUserIDs
        self.attachments = attachments
    }
}

/// The order of comments and of replies: oldest first, newest first, or most replied first
/// (`top`, then newest).
public enum CommentSort: String, Sendable, Hashable, CaseIterable {
    case first, last, top

    public init(_ text: String?, field: String = "sort") throws(FeedsError) {
        guard let sort = Self(rawValue: text ?? "first") else {
            throw .input("sort is first, last or top", field: field)
        }
        self = sort
    }
}

/// GetComments and GetCommentReplies: a page of comments under an activity or a comment, each
/// with its replies down to `depth` levels, `repliesLimit` per comment.
public struct CommentThreadQuery: Sendable, Hashable {
    public enum Root: Sendable, Hashable {
        case activity(String)
        case comment(String)
    }

    public var root: Root
    public var sort: CommentSort
    /// Levels of replies under each comment of the page (0: none).
    public var depth: Int
    public var repliesLimit: Int
    public var limit: Int
    public var cursor: KeysetCursor?
    /// Whose own reactions the comments carry.
    public var ownFieldsOf: String?

    public static let cursorKind = "c"
    public static let maxDepth = 5
    public static let maxRepliesLimit = 20

    public init(root: Root, sort: String?, depth: Int?, repliesLimit: Int?, limit: Int?, next: String?, prev: String?)
        throws(FeedsError)
    {
        self.root = root
        self.sort = try CommentSort(sort)
        let depth = depth ?? 1
        guard (0...Self.maxDepth).contains(depth) else { throw .input("depth is 0 to \(Self.maxDepth)", field: "depth") }
        self.depth = depth
        let repliesLimit = repliesLimit ?? 3
        guard (0...Self.maxRepliesLimit).contains(repliesLimit) else {
            throw .input("replies_limit is 0 to \(Self.maxRepliesLimit)", field: "replies_limit")
        }
        self.repliesLimit = repliesLimit
        let limit = limit ?? KeysetPage.defaultLimit
        guard (0...KeysetPage.maxLimit).contains(limit) else {
            throw .input("limit must be between 0 and \(KeysetPage.maxLimit)", field: "limit")
        }
        self.limit = limit == 0 ? KeysetPage.defaultLimit : limit
        if let prev, !prev.isEmpty { throw .input("comments page forward only: use next", field: "prev") }
        if let next, !next.isEmpty {
            // The cursor's keys: the sort it was made for, the reply count (top), the last id.
            cursor = try KeysetCursor(token: next, kind: Self.cursorKind, keyCount: 3, ascending: self.sort == .first, field: "next")
            guard cursor?.keys[0] == self.sort.rawValue, Int(cursor?.keys[1] ?? "") != nil else {
                throw .input("next was made for another sort", field: "next")
            }
        }
    }
}

/// A comment with the first page of its replies, as a thread shows it.
public struct CommentThread: Sendable, Hashable {
    public var comment: Comment
    public var replies: [CommentThread]
    /// More replies exist than `replies` holds.
    public var moreReplies: Bool
    /// Replies exist below the depth asked for.
    public var depthTruncated: Bool

    public init(comment: Comment, replies: [CommentThread] = [], moreReplies: Bool = false, depthTruncated: Bool = false) {
        self.comment = comment
        self.replies = replies
        self.moreReplies = moreReplies
        self.depthTruncated = depthTruncated
    }
}

/// A page of comment threads, and the cursor to the next.
public struct CommentPage: Sendable, Hashable {
    public var threads: [CommentThread]
    public var next: KeysetCursor?

    public init(threads: [CommentThread], next: KeysetCursor?) {
        self.threads = threads
        self.next = next
    }
}
