import FeedsAPI
import FeedsCore
import FeedsWire
import Foundation
import Logging

/// Notification feeds: the notifications writes make when asked (`create_notification_activity`),
/// taking them back with what made them, MarkActivity, and `feeds.notification_feed.updated` to
/// the recipient's sockets. A notification is written after the write that caused it, and is
/// keyed by that cause: a retried request makes it once.
extension FeedsAPIImplementation {
    func markActivity(_ input: Operations.MarkActivity.Input) async throws -> Operations.MarkActivity.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let feed = try FeedID(group: input.path.feedGroupId, id: input.path.feedId, field: "feed_id")
        let user = try request.actingUser(body.userId ?? body.user?.id)
        guard feed.group == "notification" else {
            throw FeedsError.input("MarkActivity marks a notification feed's groups; \(feed) is not one", field: "feed_group_id")
        }
        guard feed.id == user else { throw FeedsError.notAllowed("\(feed) is \(feed.id)'s: \(user) may not mark it") }
        let mark = try NotificationMark(
            allRead: body.markAllRead, allSeen: body.markAllSeen, read: body.markRead, seen: body.markSeen,
            watched: body.markWatched)
        let status = try await notifications.mark(feed: feed.description, mark, logger: request.logger)
        publishActivityMarkedEvent(feed: feed.description, recipient: user, mark)
        publishNotificationFeedEvent(feed: feed.description, recipient: user, group: nil, status: status)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    /// Writes the notification a write asked for (nil: nobody to tell) and tells its recipient.
    func notify(_ draft: NotificationDraft?, logger: Logger) async throws {
        guard let draft else { return }
        let group = try await notifications.add(draft, format: .notification, logger: logger)
        try await published(feed: draft.feed, group: group, logger: logger)
    }

    /// Mentions tell only those who may read the activity: a mention in a followers-only post
    /// tells nothing of it to a user who does not follow.
    func notifyReaders(_ drafts: [NotificationDraft?], of activityID: String, logger: Logger) async throws {
        var seen = Set<String>()
        for case let draft? in drafts where seen.insert(draft.source).inserted {
            let recipient = String(draft.feed.dropFirst("notification:".count))
            guard try await store.activity(id: activityID, viewer: .user(recipient), logger: logger) != nil else { continue }
            try await notify(draft, logger: logger)
        }
    }

    /// Takes back every notification about the activities (they were deleted).
    func unnotify(activities ids: [String], logger: Logger) async throws {
        for id in ids {
            for feed in try await notifications.removeAll(activityID: id, logger: logger) {
                try await published(feed: feed, group: nil, logger: logger)
            }
        }
    }

    /// Takes back the notification `source` made, if it made one.
    func unnotify(source: String, logger: Logger) async throws {
        guard let (feed, group) = try await notifications.remove(source: source, logger: logger) else { return }
        try await published(feed: feed, group: group, logger: logger)
    }

    private func published(feed: String, group: NotificationGroup?, logger: Logger) async throws {
        let status = try await notifications.status(feed: feed, logger: logger)
        let recipient = String(feed.dropFirst("notification:".count))
        publishNotificationFeedEvent(feed: feed, recipient: recipient, group: group, status: status)
    }

    /// `feeds.notification_feed.updated`: the group that changed and the new status, to the
    /// recipient's sockets only; Stream's clients replace the group and the status with them.
    func publishNotificationFeedEvent(feed: String, recipient: String, group: NotificationGroup?, status: NotificationStatus) {
        var json = JSONWriter(capacity: 2048)
        var users: [String: [UInt8]] = [:]
        json.object { json in
            json.field("type", "feeds.notification_feed.updated")
            json.field("created_at", Date())
            json.emptyObject("custom")
            json.key("aggregated_activities")
            json.array(group.map { [$0] } ?? []) { $0.aggregatedActivity($1, urls: uploads.urls, users: &users) }
            json.key("notification_status")
            json.notificationStatus(status)
        }
        realtime.publish(FeedEvent(fids: [feed], onlyFor: recipient, payload: json.bytes))
    }

    /// `feeds.activity.marked`, as the Swift SDK applies it.
    func publishActivityMarkedEvent(feed: String, recipient: String, _ mark: NotificationMark) {
        var json = JSONWriter(capacity: 512)
        json.object { json in
            json.field("type", "feeds.activity.marked")
            json.field("created_at", Date())
            json.emptyObject("custom")
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
