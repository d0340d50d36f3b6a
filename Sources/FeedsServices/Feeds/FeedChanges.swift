import FeedsCore
import Logging

/// A feed's own fields changed: its name, description and custom data, by its owner or the
/// server; its watchers get `feeds.feed.updated`.
package struct FeedChanges<Store: ActivityStore>: Sendable {
    let store: Store
    let events: Events<Store>

    package init(store: Store, events: Events<Store>) { (self.store, self.events) = (store, events) }

    /// UpdateFeed: `details`, checked, applied when `principal` owns the feed or is the server.
    package func update(_ id: FeedID, _ details: FeedDetails, principal: Principal, logger: Logger) async throws -> Feed {
        let feed = try await store.updateFeed(id, details, by: principal.userID, logger: logger)
        events.feed("feeds.feed.updated", feed, actor: principal.userID == nil ? nil : feed.createdBy)
        return feed
    }
}
