import FeedsCore
import Logging

/// Stories' workflow: `is_watched` on the reads of groups that track watching, a story timeline's
/// groups (aggregated when read, `ReadTimeAggregation`), and a reader marking stories watched,
/// with its events to that reader.
package struct Stories<Store: ActivityStore>: Sendable {
    let watches: any WatchStore
    let store: Store
    let events: Events<Store>

    package init(watches: any WatchStore, store: Store, events: Events<Store>) {
        (self.watches, self.store, self.events) = (watches, store, events)
    }

    /// `activities` of a feed of `group` with whether `reader` watched each, when the group tracks
    /// watching (without a reader, a server's read, none is); the watched ones left out when the
    /// group skips them.
    package func marked(_ activities: [Activity], in group: FeedGroup?, reader: String?, logger: Logger) async throws
        -> [Activity]
    {
        guard let stories = group?.config.stories, stories.trackWatched else { return activities }
        let watched = try await watchedSet(activities, reader: reader, logger: logger)
        return activities.compactMap { activity in
            var activity = activity
            activity.isWatched = watched.contains(activity.id)
            return stories.skipWatched && activity.isWatched == true ? nil : activity
        }
    }

    /// A page of an aggregated story feed's groups: its newest live activities the viewer may
    /// read, grouped by the group's format.
    package func groups(
        of feed: FeedID, group: FeedGroup, format: AggregationFormat, viewer: Principal, reader: String?, limit: Int,
        next: String?, logger: Logger
    ) async throws -> (groups: [AggregatedGroup], next: String?) {
        try ReadTimeAggregation.page(
            try await allGroups(of: feed, group: group, format: format, viewer: viewer, reader: reader, logger: logger),
            limit: limit, next: next)
    }

    /// MarkActivity's `mark_watched` by `reader` on `feed`: the stories among those named that they
    /// may read are marked, and their sockets told (the groups, or the stories, now watched, and
    /// `feeds.activity.marked`).
    package func markWatched(
        _ mark: NotificationMark, on feed: FeedID, group: FeedGroup, by reader: String, logger: Logger
    ) async throws {
        let ids = mark.watched
        var query = ActivityQuery(viewer: .user(reader), limit: ids.count)
        query.ids = ids
        let readable = try await store.queryActivities(query, logger: logger).activities
        try await watches.markWatched(readable.map(\.id), by: reader, logger: logger)
        let marked = Set(readable.map(\.id))
        if let format = group.config.aggregation.flatMap({ try? AggregationFormat($0.format) }) {
            let groups = try await allGroups(
                of: feed, group: group, format: format, viewer: .user(reader), reader: reader, logger: logger)
            let touched = groups.filter { $0.activities.contains { marked.contains($0.id) } }
            events.storiesFeed(feed: feed.description, recipient: reader, groups: touched, activities: [])
        } else {
            let activities = readable.map { activity in
                var activity = activity
                activity.isWatched = true
                return activity
            }
            events.storiesFeed(feed: feed.description, recipient: reader, groups: [], activities: activities)
        }
        events.activityMarked(feed: feed.description, recipient: reader, mark)
    }

    private func allGroups(
        of feed: FeedID, group: FeedGroup, format: AggregationFormat, viewer: Principal, reader: String?, logger: Logger
    ) async throws -> [AggregatedGroup] {
        var query = ActivityQuery(feeds: [feed.description], viewer: viewer, limit: ReadTimeAggregation.window)
        query.ownFieldsOf = reader
        query.leavesOutBlocked = true
        let activities = try await store.queryActivities(query, logger: logger).activities
        let stories = group.config.stories
        let watched = stories?.trackWatched == true ? try await watchedSet(activities, reader: reader, logger: logger) : nil
        return ReadTimeAggregation.groups(activities, format: format, watched: watched, skipWatched: stories?.skipWatched == true)
    }

    private func watchedSet(_ activities: [Activity], reader: String?, logger: Logger) async throws -> Set<String> {
        guard let reader else { return [] }
        return try await watches.watched(activities.map(\.id), by: reader, logger: logger)
    }
}
