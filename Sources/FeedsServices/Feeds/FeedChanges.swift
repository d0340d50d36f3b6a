import FeedsCore
import Logging

/// Changes to feeds themselves, by their owners or the server: their fields (UpdateFeed), their
/// visibility (ChangeFeedVisibility) and their deletion (DeleteFeed, DeleteFeedsBatch); the
/// feeds' watchers are told, and watches the change no longer allows end.
package struct FeedChanges<Store: ActivityStore>: Sendable {
    let store: Store
    let events: Events<Store>
    let notifier: Notifier<Store>

    package init(store: Store, events: Events<Store>, notifier: Notifier<Store>) {
        (self.store, self.events, self.notifier) = (store, events, notifier)
    }

    /// UpdateFeed: `details`, checked, applied when `principal` owns the feed or is the server.
    package func update(_ id: FeedID, _ details: FeedDetails, principal: Principal, logger: Logger) async throws -> Feed {
        let feed = try await store.updateFeed(id, details, by: principal.userID, logger: logger)
        events.feed("feeds.feed.updated", feed, actor: principal.userID == nil ? nil : feed.createdBy)
        return feed
    }

    /// ChangeFeedVisibility. Follows the new level refuses end (with their events), as do the
    /// watches of everyone but the owner when the feed closes: a follower or member who still may
    /// read it watches it again with their next read.
    package func changeVisibility(_ id: FeedID, _ change: VisibilityChange, principal: Principal, logger: Logger)
        async throws -> Feed
    {
        let changed = try await store.changeVisibility(of: id, change, by: principal, logger: logger)
        let feed = changed.feed
        events.feed("feeds.feed.updated", feed, actor: principal.userID == nil ? nil : feed.createdBy)
        for follow in changed.approved { events.follow("feeds.follow.updated", follow) }
        for follow in changed.ended {
            events.follow("feeds.follow.deleted", follow)
            try await notifier.unnotify(
                source: NotificationDraft.followSource(source: follow.source.id, target: follow.target.id), logger: logger)
        }
        if !FeedGrants.inForce.allows(.read, .stranger, feed.visibility) {
            try await events.realtime.revokeAll(id.description, allBut: feed.createdBy.id)
        }
        return feed
    }

    /// DeleteFeed, DeleteFeedsBatch: the feeds' watchers get `feeds.feed.deleted`; the
    /// notifications the deleted activities made are taken back. Returns the task recorded.
    package func delete(_ deletion: FeedDeletion, principal: Principal, logger: Logger) async throws -> BackgroundTask {
        let deleted = try await store.deleteFeeds(deletion, by: principal, logger: logger)
        for feed in deleted.feeds {
            events.feedDeleted(feed, actor: principal.userID == nil ? nil : feed.createdBy)
        }
        try await notifier.unnotify(activities: deleted.activities, logger: logger)
        return deleted.task
    }
}
