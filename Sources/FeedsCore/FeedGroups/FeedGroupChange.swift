/// A create, update or get-or-create of a feed group, checked before anything is written. A field
/// left out keeps what the group has (a new group: Stream's defaults).
public struct FeedGroupChange: Sendable, Equatable {
    public var defaultVisibility: FeedVisibility?
    public var aggregation: FeedGroupConfig.Aggregation?
    public var notification: FeedGroupConfig.NotificationSettings?
    public var stories: FeedGroupConfig.StoriesSettings?
    public var activitySelectors: [ActivitySelection]?
    public var ranking: Ranking?
    public var pushNotification: FeedGroupConfig.PushNotificationSettings?
    public var custom: JSONObject?

    public init(
        defaultVisibility: FeedVisibility? = nil, aggregation: FeedGroupConfig.Aggregation? = nil,
        notification: FeedGroupConfig.NotificationSettings? = nil, stories: FeedGroupConfig.StoriesSettings? = nil,
        activitySelectors: [ActivitySelection]? = nil, ranking: Ranking? = nil,
        pushNotification: FeedGroupConfig.PushNotificationSettings? = nil, custom: JSONObject? = nil
    ) {
        (self.defaultVisibility, self.aggregation, self.notification) = (defaultVisibility, aggregation, notification)
        (self.stories, self.activitySelectors, self.ranking) = (stories, activitySelectors, ranking)
        (self.pushNotification, self.custom) = (pushNotification, custom)
    }

    /// Every node keeps every group in memory: custom data stays small.
    public static let customLimit = 16_384

    /// Checks the change for `group` and applies it to `config` (and `custom`).
    public func applied(to group: FeedGroup) throws(FeedsError) -> FeedGroup {
        try Self.checkID(group.id)
        var next = group
        if let defaultVisibility { next.defaultVisibility = defaultVisibility }
        if let stories { next.config.stories = stories }
        if let aggregation {
            // Applied when the feed is read, which suits a story timeline's few, expiring stories.
            guard group.id == "notification" || next.config.stories != nil else {
                throw .input(
                    "aggregation applies to the notification group and to story groups (with stories settings) on this server",
                    field: "aggregation")
            }
            _ = try AggregationFormat(aggregation.format)
            next.config.aggregation = aggregation
        }
        if let notification {
            guard group.id == "notification" else {
                throw .input("notification settings apply to the notification group only", field: "notification")
            }
            next.config.notification = notification
        }
        if let activitySelectors {
            // Checked as a view's are: at most 10, each type once.
            _ = try FeedView(id: group.id, selectors: activitySelectors, ranking: nil)
            next.config.activitySelectors = activitySelectors
        }
        if let ranking {
            guard next.config.aggregation == nil else {
                throw .input("an aggregated group (the bell, stories) is not ranked", field: "ranking")
            }
            next.config.ranking = ranking
        }
        if let pushNotification {
            let types = pushNotification.pushTypes ?? []
            guard types.count <= 50, types.allSatisfy({ (1...64).contains($0.utf8.count) }) else {
                throw .input(
                    "push_notification.push_types is at most 50 types of 1–64 bytes", field: "push_notification.push_types")
            }
            next.config.pushNotification = pushNotification
        }
        if let custom {
            guard JSONValue.text(custom).utf8.count <= Self.customLimit else {
                throw .input("a feed group's custom data is at most \(Self.customLimit) bytes of JSON", field: "custom")
            }
            next.custom = custom
        }
        return next
    }

    /// A group's id is a feed id's group part: 1–128 letters, digits, `_` or `-`.
    public static func checkID(_ id: String) throws(FeedsError) {
        _ = try FeedID(group: id, id: "x", field: "id")
    }
}
