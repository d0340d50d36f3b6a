import FeedsCore
import FeedsRealtime
import FeedsWire

extension Events {
    /// `feeds.stories_feed.updated` after a reader marked stories watched: the groups they are in
    /// (a story timeline) or the stories themselves (a story feed), now `is_watched`, to that
    /// reader's sockets only; Stream's clients replace them in place.
    package func storiesFeed(feed: String, recipient: String, groups: [AggregatedGroup], activities: [Activity]) {
        var json = JSONWriter(capacity: 4096)
        var users: [String: [UInt8]] = [:]
        json.object { json in
            Self.head(&json, "feeds.stories_feed.updated")
            if !activities.isEmpty {
                json.key("activities")
                json.array(activities) { $0.activity($1, urls: urls, users: &users) }
            }
            if !groups.isEmpty {
                json.key("aggregated_activities")
                json.array(groups) { $0.aggregatedActivity($1, urls: urls, users: &users) }
            }
        }
        realtime.publish(FeedEvent(fids: [feed], onlyFor: recipient, payload: json.bytes))
    }
}
