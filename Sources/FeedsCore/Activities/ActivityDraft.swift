import Foundation

/// The validated content of an activity to add, or to replace one with.
public struct ActivityDraft: Sendable, Hashable {
    public var id: String
    public var type: String
    public var userID: String
    public var text: String?
    public var feeds: [FeedID]
    public var visibility: Visibility
    public var visibilityTag: String?
    public var restrictReplies: String
    public var custom: JSONObject
    public var attachments: [StoredAttachment]
    /// When it vanishes (a story's 24 hours): every read leaves it out from then on.
    public var expiresAt: Date?
    /// The poll it carries (AddActivity's `poll_id`), checked by the caller.
    public var pollID: String?
    /// The activity it shares (`parent_id`), checked by the caller (it may be read by the poster).
    public var parentID: String?
    /// The users it names, checked (`Mentions`).
    public var mentionedUserIDs: [String] = []

    /// Whether writing this draft over `activity` would change what it holds.
    public func changes(_ activity: Activity) -> Bool {
        type != activity.type || text != activity.text || feeds.map(\.description) != activity.feeds
            || visibility != activity.visibility || visibilityTag != activity.visibilityTag
            || restrictReplies != activity.restrictReplies || custom != activity.custom || attachments != activity.attachments
            || pollID != activity.pollID || parentID != activity.parentID || mentionedUserIDs != activity.mentionedUserIDs
    }

    /// Validates the raw fields of AddActivity / UpdateActivity.
    public init(
        id: String?, type: String?, userID: String, text: String?, feeds: [String]?, visibility: String?,
        visibilityTag: String?, restrictReplies: String?, custom: JSONObject?, attachments: [StoredAttachment]?
    ) throws(FeedsError) {
        let id = id ?? UUID().lowercasedString
        guard !id.isEmpty, id.utf8.count <= 255 else {
            throw .input("id must be 1–255 characters", field: "id")
        }
        guard let type, !type.isEmpty else { throw .input("type is required", field: "type") }
        guard type.utf8.count <= 255 else { throw .input("type must be at most 255 characters", field: "type") }
        guard !userID.isEmpty, userID.utf8.count <= 255 else {
            throw .input("user_id must be 1–255 characters", field: "user_id")
        }
        guard let feeds, !feeds.isEmpty else { throw .input("feeds must name at least one feed", field: "feeds") }
        guard feeds.count <= ActivityDraft.maxFeeds else {
            throw .input("feeds may name at most \(ActivityDraft.maxFeeds) feeds", field: "feeds")
        }
        var parsed: [FeedID] = []
        for feed in feeds {
            let feedID = try FeedID(feed)
            if !parsed.contains(feedID) { parsed.append(feedID) }
        }
        let visibilityValue: Visibility
        if let visibility {
            guard let value = Visibility(rawValue: visibility) else {
                throw .input("visibility must be public, private or tag", field: "visibility")
            }
            visibilityValue = value
        } else {
            visibilityValue = .public
        }
        if visibilityValue == .tag, (visibilityTag ?? "").isEmpty {
            throw .input("visibility tag requires visibility_tag", field: "visibility_tag")
        }
        if let visibilityTag, visibilityTag.utf8.count > 32 {
            throw .input("visibility_tag must be at most 32 characters", field: "visibility_tag")
        }
        let restrict = restrictReplies ?? "everyone"
        guard ["everyone", "people_i_follow", "nobody"].contains(restrict) else {
            throw .input("restrict_replies must be everyone, people_i_follow or nobody", field: "restrict_replies")
        }
        guard (attachments ?? []).count <= ActivityDraft.maxAttachments else {
            throw .input("an activity may hold at most \(ActivityDraft.maxAttachments) attachments", field: "attachments")
        }
        self.id = id
        self.type = type
        self.userID = userID
        self.text = text
        self.feeds = parsed
        self.visibility = visibilityValue
        self.visibilityTag = visibilityTag
        self.restrictReplies = restrict
        self.custom = custom ?? [:]
        self.attachments = attachments ?? []
    }

    /// The most attachments an activity holds, given and uploaded together.
    public static let maxAttachments = 100

    /// Stream's bound on the feeds one activity is posted to.
    public static let maxFeeds = 25
}

extension ActivityDraft {
    /// The longest an activity may be set to live: past that, `expires_at` is more likely a mistake.
    public static let longestLife: TimeInterval = 10 * 365 * 24 * 3600

    /// `expires_at` checked: in the future, within `longestLife`.
    public static func expiry(_ date: Date?, now: Date = Date()) throws(FeedsError) -> Date? {
        guard let date else { return nil }
        guard date > now else { throw .input("expires_at is in the past: give a time to come", field: "expires_at") }
        guard date.timeIntervalSince(now) <= longestLife else {
            throw .input("expires_at is more than 10 years away", field: "expires_at")
        }
        return date
    }
}
