import FeedsCore
import FeedsWire
import Logging

/// Reactions' workflow, to activities and to comments: the write (who may react is the store's to
/// check), the notification when asked for or taken back, and the event.
///
/// A reaction added with `enforce_unique` is sent as `….reaction.updated`: it stands for all the
/// user's reactions to the object, and Stream's client SDKs, which apply their own reply as that
/// event, then recognise the socket's copy instead of adding the reaction twice.
package struct Reactions<Store: ActivityStore>: Sendable {
    let store: Store
    let events: Events<Store>
    let notifier: Notifier<Store>

    package init(store: Store, events: Events<Store>, notifier: Notifier<Store>) {
        (self.store, self.events, self.notifier) = (store, events, notifier)
    }

    /// AddActivityReaction; `notify` (copying the custom data or not) when asked for.
    package func add(
        _ reaction: ReactionInput, toActivity id: String, userID: String, notify: NotificationRequest?, principal: Principal,
        logger: Logger
    ) async throws -> (reaction: Reaction, activity: Activity) {
        let notifying = notify.map {
            ReactionNotification(
                group: notifier.group(type: NotificationDraft.reactionType, targetID: id, actorID: userID),
                copyCustom: $0.copyCustom)
        }
        let (stored, activity, notified) = try await store.addReaction(
            reaction, activityID: id, userID: userID, by: principal, notifying: notifying, logger: logger)
        if let notify, let draft = NotificationDraft.reaction(stored, to: activity, copyCustom: notify.copyCustom) {
            // Written with the reaction; else the same reaction's is there, and moves to the group of now.
            if let notified {
                try await notifier.notified(draft, notified, push: notify.push, logger: logger)
            } else {
                try await notifier.notify(draft, push: notify.push, logger: logger)
            }
        }
        events.activity(
            reaction.enforceUnique ? "feeds.activity.reaction.updated" : "feeds.activity.reaction.added", activity,
            actor: stored.user, extra: [("reaction", try? Wire.reaction(stored))])
        return (stored, activity)
    }

    /// DeleteActivityReaction: the user's reaction of `type`, and the notification it made.
    package func delete(_ type: String, fromActivity id: String, userID: String, principal: Principal, logger: Logger)
        async throws -> (reaction: Reaction, activity: Activity)
    {
        let (removed, activity) = try await store.deleteReaction(
            type: type, activityID: id, userID: userID, by: principal, logger: logger)
        try await notifier.unnotify(
            source: NotificationDraft.reactionSource(activityID: activity.id, userID: userID, type: type), logger: logger)
        events.activity(
            "feeds.activity.reaction.deleted", activity, actor: removed.user, extra: [("reaction", try? Wire.reaction(removed))])
        return (removed, activity)
    }

    /// AddCommentReaction; `notify` when asked for.
    package func add(
        _ reaction: ReactionInput, toComment id: String, userID: String, notify: NotificationRequest?, principal: Principal,
        logger: Logger
    ) async throws -> (reaction: Reaction, comment: Comment) {
        let (stored, comment) = try await store.addCommentReaction(
            reaction, commentID: id, userID: userID, by: principal, logger: logger)
        if let notify {
            try await notifier.notify(.commentReaction(stored, to: comment, copyCustom: notify.copyCustom), push: notify.push, logger: logger)
        }
        events.comment(
            reaction.enforceUnique ? "feeds.comment.reaction.updated" : "feeds.comment.reaction.added", comment, reaction: stored,
            logger: logger)
        return (stored, comment)
    }

    /// DeleteCommentReaction.
    package func delete(_ type: String, fromComment id: String, userID: String, principal: Principal, logger: Logger)
        async throws -> (reaction: Reaction, comment: Comment)
    {
        let (removed, comment) = try await store.deleteCommentReaction(
            type: type, commentID: id, userID: userID, by: principal, logger: logger)
        try await notifier.unnotify(
            source: NotificationDraft.commentReactionSource(commentID: comment.id, userID: userID, type: type), logger: logger)
        events.comment("feeds.comment.reaction.deleted", comment, reaction: removed, logger: logger)
        return (removed, comment)
    }
}
