import Foundation

/// What someone did that a user is told of in their notification feed (`notification:<user>`):
/// a reaction to their activity or comment, a comment on their activity, a reply to their
/// comment, a follow of their feed. Made by the write that caused it, when the request asks
/// (`create_notification_activity`), never for what users do to their own things.
public struct NotificationDraft: Sendable, Equatable {
    /// The notification feed, `notification:<recipient>`.
    public var feed: String
    /// reaction, comment, comment_reply, comment_reaction, follow.
    public var type: String
    /// Who did it.
    public var actorID: String
    /// What the aggregation format knows as `target_id`: the activity, the comment or the user.
    public var targetID: String
    /// What made it, unique in the feed: the same source again updates it (a like after an unlike).
    public var source: String
    /// Stream's `notification_context`: `target` and `trigger`.
    public var context: JSONObject
    public var custom: JSONObject
    /// The activity it is about (nil for a follow): deleting the activity takes the notification.
    public var activityID: String?

    public init(
        recipient: String, type: String, actorID: String, targetID: String, source: String, context: JSONObject,
        custom: JSONObject = [:], activityID: String? = nil
    ) {
        self.activityID = activityID
        self.feed = "notification:\(recipient)"
        (self.type, self.actorID, self.targetID, self.source, self.context, self.custom) =
            (type, actorID, targetID, source, context, custom)
    }

    /// Who is told: the notification feed's owner.
    public var recipient: String { Self.owner(of: feed) }

    /// The owner of a notification feed, `notification:<owner>`.
    public static func owner(of feed: String) -> String {
        String(feed.dropFirst("notification:".count))
    }

    /// Whether the recipient can have a notification feed: its id is a feed id's.
    public static func canNotify(_ userID: String) -> Bool {
        (try? FeedID(group: "notification", id: userID)) != nil
    }
}

/// A reaction's notification, to write with the reaction (`ReactionStore.addReaction`).
public struct ReactionNotification: Sendable, Equatable {
    /// The group, rendered by the notification group's format.
    public var group: String
    /// `copy_custom_to_notification`.
    public var copyCustom: Bool

    public init(group: String, copyCustom: Bool) {
        (self.group, self.copyCustom) = (group, copyCustom)
    }
}

/// A notification feed's `notification_status`: how many groups are unread and unseen, the
/// watermarks, and the groups marked by id since.
public struct NotificationStatus: Sendable, Equatable {
    public var unread: Int
    public var unseen: Int
    public var lastReadAt: Date?
    public var lastSeenAt: Date?
    public var readGroups: [String]
    public var seenGroups: [String]

    public init(
        unread: Int, unseen: Int, lastReadAt: Date?, lastSeenAt: Date?, readGroups: [String], seenGroups: [String]
    ) {
        (self.unread, self.unseen, self.lastReadAt, self.lastSeenAt) = (unread, unseen, lastReadAt, lastSeenAt)
        (self.readGroups, self.seenGroups) = (readGroups, seenGroups)
    }

    /// Most groups listed as read or seen by id, as Stream caps them.
    public static let listedGroups = 101
}

/// A page of a notification feed's groups, newest first.
public struct NotificationPage: Sendable, Equatable {
    public var groups: [AggregatedGroup]
    public var status: NotificationStatus
    public var next: String?

    public init(groups: [AggregatedGroup], status: NotificationStatus, next: String?) {
        (self.groups, self.status, self.next) = (groups, status, next)
    }
}

/// MarkActivity on a notification feed, checked: "all" moves a watermark; ids mark groups.
public struct NotificationMark: Sendable, Equatable {
    public var allRead: Bool
    public var allSeen: Bool
    public var read: [String]
    public var seen: [String]
    public var watched: [String]

    /// At most this many ids in one call, of each kind.
    public static let maxIDs = 100

    public init(allRead: Bool?, allSeen: Bool?, read: [String]?, seen: [String]?, watched: [String]?) throws(FeedsError) {
        for (ids, field) in [(read, "mark_read"), (seen, "mark_seen"), (watched, "mark_watched")] {
            guard (ids?.count ?? 0) <= Self.maxIDs else {
                throw .input("\(field) takes at most \(Self.maxIDs) ids", field: field)
            }
            for id in ids ?? [] where !(1...512).contains(id.utf8.count) {
                throw .input("\(field) holds an id that is not 1 to 512 bytes", field: field)
            }
        }
        (self.allRead, self.allSeen) = (allRead ?? false, allSeen ?? false)
        (self.read, self.seen, self.watched) =
            (Array(Set(read ?? [])).sorted(), Array(Set(seen ?? [])).sorted(), Array(Set(watched ?? [])).sorted())
        guard self.allRead || self.allSeen || !self.read.isEmpty || !self.seen.isEmpty || !self.watched.isEmpty else {
            throw .input("mark nothing: give mark_all_read, mark_all_seen, mark_read, mark_seen or mark_watched")
        }
    }
}
