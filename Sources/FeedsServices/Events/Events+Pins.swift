import FeedsCore
import FeedsRealtime
import FeedsWire

extension Events {
    /// `feeds.activity.pinned` and `feeds.activity.unpinned`, with the pin, to the feed's watchers
    /// who may see the activity (its owner only when it is not public).
    package func pin(_ type: String, _ pin: ActivityPin) {
        var json = JSONWriter(capacity: 2048)
        var users: [String: [UInt8]] = [:]
        json.object { json in
            Self.head(&json, type)
            json.key("pinned_activity")
            json.object { json in
                json.key("activity")
                json.activity(pin.activity, urls: urls, users: &users)
                json.field("created_at", pin.createdAt)
                json.field("duration", "0.00ms")
                json.field("feed", pin.feed.description)
                json.field("user_id", pin.user.id)
            }
        }
        realtime.publish(FeedEvent(fids: [pin.feed.description], onlyFor: Self.audience(pin.activity), payload: json.bytes))
    }
}
