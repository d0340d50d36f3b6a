import FeedsCore
import Foundation
import Logging

/// Notification feeds' workflow: the notifications writes make when asked
/// (`create_notification_activity`), taking them back with what made them, marks, and the events
/// to the recipient. A notification is written after the write that caused it and is keyed by
/// that cause, so a retried request makes it once. The recipient's event follows the write
/// (`NotificationChanges`).
package struct Notifier<Store: ActivityStore>: Sendable {
    let notifications: any NotificationStore
    let changes: NotificationChanges
    let store: Store
    let events: Events<Store>
    /// The notification group's `aggregation.format` as this node last loaded it (parsed once a
    /// load: `FeedGroups.notificationFormat`).
    let format: @Sendable () -> AggregationFormat
    /// Whether a webhook takes `feeds.push_notification` (else no push is looked up).
    let pushes: @Sendable () -> Bool

    package init(
        notifications: any NotificationStore, changes: NotificationChanges, store: Store, events: Events<Store>,
        pushes: @escaping @Sendable () -> Bool = { false }, format: @escaping @Sendable () -> AggregationFormat
    ) {
        (self.notifications, self.changes, self.store, self.events, self.format) = (notifications, changes, store, events, format)
        self.pushes = pushes
    }

    /// Writes the notification a write asked for (nil: nobody to tell) and tells its recipient,
    /// and their devices through the app's webhooks when their push settings allow (and `push`:
    /// the write's `skip_push` turns it off).
    package func notify(_ draft: NotificationDraft?, push: Bool = true, logger: Logger) async throws {
        guard let draft else { return }
        let touch = try await notifications.add(draft, format: format(), logger: logger)
        try await notified(draft, touch, push: push, logger: logger)
    }

    /// The group a notification made now goes in, by the notification group's format.
    package func group(type: String, targetID: String, actorID: String) -> String {
        format().render(type: type, targetID: targetID, userID: actorID, time: Date())
    }

    /// After a notification's write (the store's, or one folded into the write that caused it):
    /// its event, and its push.
    package func notified(_ draft: NotificationDraft, _ touch: NotificationTouch, push: Bool, logger: Logger) async throws {
        changes.note(touch)
        if let group = touch.group, push, pushes() { try await self.push(draft, group: group, logger: logger) }
    }

    private func push(_ draft: NotificationDraft, group: String, logger: Logger) async throws {
        let devices = try await store.devices(of: draft.recipient, logger: logger).filter { !$0.disabled }
        guard !devices.isEmpty else { return }
        let preferences = try await store.pushPreferences(of: [draft.recipient], logger: logger)[draft.recipient]
        guard preferences?.allows(draft.type, now: Date()) ?? true else { return }
        events.push(draft, group: group, devices: devices)
    }

    /// Pushes a new activity to the followers who asked for it (`push_preference` `all`) through
    /// the app's webhooks, as their push settings allow; a page of followers at a time, so a post
    /// to a million followers holds no more than a page. `pushToFollowersLater` runs it, only
    /// when a webhook takes pushes.
    private func pushToFollowers(_ activity: Activity, logger: Logger) async throws {
        var after: String?
        while true {
            let followers = try await store.followerPushes(
                of: activity.id, after: after, limit: FollowerPush.page, logger: logger)
            guard let last = followers.last else { return }
            let preferences = try await store.pushPreferences(of: followers.map(\.recipient), logger: logger)
            let now = Date()
            for follower in followers where !follower.devices.isEmpty {
                guard preferences[follower.recipient]?.allowsActivity(ofType: activity.type, now: now) ?? true else { continue }
                events.push(activity, to: follower)
            }
            if followers.count < FollowerPush.page { return }
            after = last.recipient
        }
    }

    /// `pushToFollowers` off the request's path: the reply does not wait for the followers.
    package func pushToFollowersLater(_ activity: Activity, logger: Logger) {
        guard pushes() else { return }
        let notifier = self
        Task {
            do {
                try await notifier.pushToFollowers(activity, logger: logger)
            } catch {
                logger.warning("follower pushes not sent", metadata: ["activity": "\(activity.id)", "error": "\(error)"])
            }
        }
    }

    /// Mentions tell only those who may read the activity: a mention in a followers-only post
    /// tells nothing of it to a user who does not follow.
    package func notifyReaders(
        _ drafts: [NotificationDraft?], of activityID: String, push: Bool = true, logger: Logger
    ) async throws {
        var seen = Set<String>()
        for case let draft? in drafts where seen.insert(draft.source).inserted {
            guard try await store.activity(id: activityID, viewer: .user(draft.recipient), logger: logger) != nil else {
                continue
            }
            try await notify(draft, push: push, logger: logger)
        }
    }

    /// A comment tells its activity's owner; a reply, the author of the comment it answers; and
    /// each user it mentions who may read the activity.
    package func commented(_ comment: Comment, copyCustom: Bool, push: Bool = true, logger: Logger) async throws {
        guard let activity = try await store.activity(id: comment.activityID, viewer: .server, logger: logger) else { return }
        var parent: Comment?
        if let parentID = comment.parentID {
            parent = try await store.comment(id: parentID, by: .server, ownFieldsOf: nil, logger: logger)
        }
        try await notify(.comment(comment, on: activity, replyingTo: parent, copyCustom: copyCustom), push: push, logger: logger)
        let mentions = comment.mentionedUserIDs.map {
            NotificationDraft.commentMention(of: $0, in: comment, on: activity, copyCustom: copyCustom)
        }
        try await notifyReaders(mentions, of: activity.id, push: push, logger: logger)
    }

    /// Takes back the notification `source` made, if it made one.
    package func unnotify(source: String, logger: Logger) async throws {
        guard let touch = try await notifications.remove(source: source, logger: logger) else { return }
        changes.note(touch)
    }

    /// Takes back every notification about the activities (they were deleted).
    package func unnotify(activities ids: [String], logger: Logger) async throws {
        for id in ids {
            for feed in try await notifications.removeAll(activityID: id, logger: logger) {
                changes.note(NotificationTouch(feed: feed, group: nil))
            }
        }
    }

    /// Marks `user`'s notification feed, and tells their sockets.
    package func mark(_ feed: FeedID, by user: String, _ mark: NotificationMark, logger: Logger) async throws {
        let status = try await notifications.mark(feed: feed.description, mark, logger: logger)
        events.activityMarked(feed: feed.description, recipient: user, mark)
        events.notificationFeed(feed: feed.description, recipient: user, group: nil, status: status)
    }
}
