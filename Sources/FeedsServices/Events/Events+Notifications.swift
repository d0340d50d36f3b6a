import FeedsCore
import FeedsRealtime
import FeedsWire

extension Events {
    /// `feeds.notification_feed.updated`: the group that changed and the new status, to the
    /// recipient's sockets only; Stream's clients replace the group and the status with them.
    package func notificationFeed(feed: String, recipient: String, group: AggregatedGroup?, status: NotificationStatus) {
        var json = JSONWriter(capacity: 2048)
        var users: [String: [UInt8]] = [:]
        json.object { json in
            Self.head(&json, "feeds.notification_feed.updated")
            json.key("aggregated_activities")
            json.array(group.map { [$0] } ?? []) { $0.aggregatedActivity($1, urls: urls, users: &users) }
            json.key("notification_status")
            json.notificationStatus(status)
        }
        realtime.publish(FeedEvent(fids: [feed], onlyFor: recipient, payload: json.bytes))
    }

    /// A touched group's event, as `NotificationChanges` read it.
    package func notificationFeed(_ touch: NotificationTouch, _ change: NotificationChange) {
        notificationFeed(
            feed: touch.feed, recipient: NotificationDraft.owner(of: touch.feed), group: change.group, status: change.status)
    }

    /// `feeds.activity.marked`, as the Swift SDK applies it.
    package func activityMarked(feed: String, recipient: String, _ mark: NotificationMark) {
        var json = JSONWriter(capacity: 512)
        json.object { json in
            Self.head(&json, "feeds.activity.marked")
            if mark.allRead { json.field("mark_all_read", true) }
            if mark.allSeen { json.field("mark_all_seen", true) }
            for (name, ids) in [("mark_read", mark.read), ("mark_seen", mark.seen), ("mark_watched", mark.watched)]
            where !ids.isEmpty {
                json.key(name)
                json.strings(ids)
            }
        }
        realtime.publish(FeedEvent(fids: [feed], onlyFor: recipient, payload: json.bytes))
    }
}
