import FeedsCore
import FeedsUploads

/// An aggregated feed's groups (`AggregatedActivityResponse`) and a notification feed's status
/// (`NotificationStatusResponse`), field for field as the generated types encode them.
extension JSONWriter {
    package mutating func aggregatedActivity(_ group: AggregatedGroup, urls: AttachmentURLs, users: inout [String: [UInt8]]) {
        object { json in
            json.key("activities")
            json.array(group.activities) { $0.activity($1, urls: urls, users: &users) }
            json.field("activity_count", group.activityCount)
            json.field("created_at", group.createdAt)
            json.field("group", group.group)
            json.field("is_read", group.isRead)
            json.field("is_seen", group.isSeen)
            if let watched = group.isWatched { json.field("is_watched", watched) }
            json.field("score", 0)
            json.field("updated_at", group.updatedAt)
            json.field("user_count", group.userCount)
            json.field("user_count_truncated", false)
        }
    }

    package mutating func notificationStatus(_ status: NotificationStatus) {
        object { json in
            json.field("last_read_at", status.lastReadAt)
            json.field("last_seen_at", status.lastSeenAt)
            json.key("read_activities")
            json.strings(status.readGroups)
            json.key("seen_activities")
            json.strings(status.seenGroups)
            json.field("unread", status.unread)
            json.field("unseen", status.unseen)
        }
    }
}
