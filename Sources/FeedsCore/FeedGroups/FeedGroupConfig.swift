/// What a feed group configures beyond its visibility, kept as Stream's JSON names it. Only what
/// this server applies is accepted (`FeedGroupChange` refuses the rest): the notification
/// group's aggregation and tracking, stories' watch tracking, the activity selectors and ranking
/// its feeds are read through (`FeedGroup.view`), and push settings for the webhooks that will
/// carry them.
public struct FeedGroupConfig: Sendable, Equatable, Codable {
    public var aggregation: Aggregation?
    public var notification: NotificationSettings?
    public var stories: StoriesSettings?
    public var activitySelectors: [ActivitySelection]?
    public var ranking: Ranking?
    public var pushNotification: PushNotificationSettings?

    public init(
        aggregation: Aggregation? = nil, notification: NotificationSettings? = nil, stories: StoriesSettings? = nil,
        activitySelectors: [ActivitySelection]? = nil, ranking: Ranking? = nil,
        pushNotification: PushNotificationSettings? = nil
    ) {
        (self.aggregation, self.notification, self.stories) = (aggregation, notification, stories)
        (self.activitySelectors, self.ranking, self.pushNotification) = (activitySelectors, ranking, pushNotification)
    }

    enum CodingKeys: String, CodingKey {
        case aggregation, notification, stories, ranking
        case activitySelectors = "activity_selectors"
        case pushNotification = "push_notification"
    }

    /// `aggregation`: the template an activity's group name is rendered from.
    public struct Aggregation: Sendable, Equatable, Codable {
        public var format: String

        public init(format: String) { self.format = format }
    }

    /// `notification`: whether seen and read are tracked.
    public struct NotificationSettings: Sendable, Equatable, Codable {
        public var trackSeen: Bool
        public var trackRead: Bool

        public init(trackSeen: Bool, trackRead: Bool) { (self.trackSeen, self.trackRead) = (trackSeen, trackRead) }

        enum CodingKeys: String, CodingKey {
            case trackSeen = "track_seen"
            case trackRead = "track_read"
        }
    }

    /// `stories`: whether watching is tracked, and whether watched stories leave the feed.
    public struct StoriesSettings: Sendable, Equatable, Codable {
        public var trackWatched: Bool
        public var skipWatched: Bool

        public init(trackWatched: Bool, skipWatched: Bool) { (self.trackWatched, self.skipWatched) = (trackWatched, skipWatched) }

        enum CodingKeys: String, CodingKey {
            case trackWatched = "track_watched"
            case skipWatched = "skip_watched"
        }
    }

    /// `push_notification`: kept for the push deliveries to come.
    public struct PushNotificationSettings: Sendable, Equatable, Codable {
        public var enablePush: Bool?
        public var pushTypes: [String]?

        public init(enablePush: Bool?, pushTypes: [String]?) { (self.enablePush, self.pushTypes) = (enablePush, pushTypes) }

        enum CodingKeys: String, CodingKey {
            case enablePush = "enable_push"
            case pushTypes = "push_types"
        }
    }
}
