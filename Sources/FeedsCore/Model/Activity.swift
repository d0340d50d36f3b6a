import Foundation

/// Who may see an activity.
public enum Visibility: String, Sendable, Hashable, CaseIterable {
    case `public`, `private`, tag
}

/// An activity's `current_feed`: a feed, as `viewer` sees it. A class, so that an activity
/// without one (every write's) stays as small as it was: a feed is a large value.
public final class CurrentFeed: Sendable, Hashable {
    public let feed: Feed
    public let viewer: Principal

    public init(feed: Feed, viewer: Principal) { (self.feed, self.viewer) = (feed, viewer) }

    public static func == (lhs: CurrentFeed, rhs: CurrentFeed) -> Bool { lhs.feed == rhs.feed && lhs.viewer == rhs.viewer }
    public func hash(into hasher: inout Hasher) { hasher.combine(feed.id) }
}

/// An activity as stored and returned.
public struct Activity: Sendable, Hashable {
    public var id: String
    public var type: String
    public var user: User
    public var text: String?
    public var feeds: [String]
    public var visibility: Visibility
    public var visibilityTag: String?
    public var restrictReplies: String
    public var custom: JSONObject
    /// Attachments in order.
    public var attachments: [StoredAttachment]
    public var createdAt: Date
    public var updatedAt: Date
    public var editedAt: Date?
    public var deletedAt: Date?
    /// Reaction, bookmark and comment counts, and the reader's own reactions and bookmarks.
    public var engagement: ActivityEngagement
    /// A notification's `notification_context` (its target and trigger); nil for other activities.
    public var notificationContext: JSONObjectText?
    /// When it vanishes from every read (nil: never).
    public var expiresAt: Date?
    /// Whether the reader watched it (a story); nil where the feed's group tracks no watching.
    public var isWatched: Bool?
    /// The poll it carries, and that poll as its reader sees it (filled in by the reads).
    public var pollID: String?
    /// Whether its reader hid it (ActivityFeedback): it then leaves the feed pages they read.
    public var hidden = false
    public var poll: Poll?
    /// The activity it shares (`parent_id`).
    public var parentID: String?
    /// That activity as its reader may see it, filled in by the reads (nil when they may not).
    public var parent: Activity? {
        get { parentBox.first }
        set { parentBox = newValue.map { [$0] } ?? [] }
    }
    private var parentBox: [Activity] = []
    /// The users it names (`mentioned_user_ids`), and those of them who exist, filled in by the reads.
    public var mentionedUserIDs: [String] = []
    public var mentionedUsers: [User] = []
    /// On a feed page, the feed it is read in (a timeline's copy: the feed it was posted to), with
    /// whom its `own_capabilities` are for.
    public var currentFeed: CurrentFeed?
    /// Whether this is only the preview of a tagged activity the reader's membership level does
    /// not give (Stream's `preview`): its frame (who, where, when, its counts), not its content.
    public private(set) var preview = false

    public init(
        id: String, type: String, user: User, text: String?, feeds: [String], visibility: Visibility,
        visibilityTag: String?, restrictReplies: String, custom: JSONObject, attachments: [StoredAttachment],
        createdAt: Date, updatedAt: Date, editedAt: Date?, deletedAt: Date?,
        engagement: ActivityEngagement = ActivityEngagement(),
        expiresAt: Date? = nil
    ) {
        self.expiresAt = expiresAt
        self.id = id
        self.type = type
        self.user = user
        self.text = text
        self.feeds = feeds
        self.visibility = visibility
        self.visibilityTag = visibilityTag
        self.restrictReplies = restrictReplies
        self.custom = custom
        self.attachments = attachments
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.editedAt = editedAt
        self.deletedAt = deletedAt
        self.engagement = engagement
    }
}

extension Activity {
    /// What a caller who may not read the activity is shown of it where a reply must carry one
    /// (the reply to deleting their own comment on it): its id, type, author and times; no text,
    /// custom data, attachments, feeds or counts.
    public var redacted: Activity {
        Activity(
            id: id, type: type, user: user, text: nil, feeds: [], visibility: visibility, visibilityTag: nil,
            restrictReplies: restrictReplies, custom: [:], attachments: [], createdAt: createdAt, updatedAt: updatedAt,
            editedAt: editedAt, deletedAt: deletedAt)
    }
}

extension Activity {
    /// Leaves of the activity what a preview shows: its content (text, attachments, custom data,
    /// poll, the activity it shares, whom it names) and its latest reactions go; its counts stay.
    public mutating func previewed() {
        preview = true
        text = nil
        attachments = []
        custom = [:]
        pollID = nil
        poll = nil
        parent = nil
        mentionedUsers = []
        engagement.latestReactions = []
    }
}
