import FeedsAPI
import FeedsCore
import FeedsWire
import OpenAPIRuntime

/// CreateFeedGroup, UpdateFeedGroup and GetOrCreateFeedGroup carry the same settings; each reads
/// into one `FeedGroupChange` here, its selectors and ranking as a feed view's (`ViewInputs`).
/// What this server does not apply is refused, never dropped.
protocol FeedGroupRequest {
    var activityFilter: Components.Schemas.ActivityFilterConfig? { get }
    var activityProcessors: [Components.Schemas.ActivityProcessorConfig]? { get }
    var activitySelectors: [Components.Schemas.ActivitySelectorConfig]? { get }
    var aggregation: Components.Schemas.AggregationConfig? { get }
    var notification: Components.Schemas.NotificationConfig? { get }
    var pushNotification: Components.Schemas.PushNotificationConfig? { get }
    var ranking: Components.Schemas.RankingConfig? { get }
    var stories: Components.Schemas.StoriesConfig? { get }
    var visibility: String? { get }
    var customFields: [String: OpenAPIValueContainer]? { get }
}

extension Components.Schemas.CreateFeedGroupRequest: FeedGroupRequest {
    var visibility: String? { defaultVisibility?.rawValue }
    var customFields: [String: OpenAPIValueContainer]? { custom?.additionalProperties }
}

extension Components.Schemas.UpdateFeedGroupRequest: FeedGroupRequest {
    var visibility: String? { defaultVisibility?.rawValue }
    var customFields: [String: OpenAPIValueContainer]? { custom?.additionalProperties }
}

extension Components.Schemas.GetOrCreateFeedGroupRequest: FeedGroupRequest {
    var visibility: String? { defaultVisibility?.rawValue }
    var customFields: [String: OpenAPIValueContainer]? { custom?.additionalProperties }
}

extension FeedGroupRequest {
    var change: FeedGroupChange {
        get throws {
            if activityProcessors?.isEmpty == false {
                throw FeedsError.input("activity_processors are not supported by this server yet", field: "activity_processors")
            }
            if activityFilter?.excludeOwnerActivities == true {
                throw FeedsError.input(
                    "activity_filter.exclude_owner_activities is not supported by this server yet",
                    field: "activity_filter.exclude_owner_activities")
            }
            if let aggregation, aggregation.activitiesSort != nil || aggregation.scoreStrategy != nil {
                throw FeedsError.input(
                    "aggregation takes a format only on this server (groups newest first, no ranking)", field: "aggregation")
            }
            if let window = notification?.deduplicationWindow, !window.isEmpty, window != "0" {
                throw FeedsError.input(
                    "notification.deduplication_window: this server always deduplicates (one notification per cause)",
                    field: "notification.deduplication_window")
            }
            return FeedGroupChange(
                defaultVisibility: visibility.flatMap(FeedVisibility.init(rawValue:)),
                aggregation: try aggregation.map { aggregation in
                    guard let format = aggregation.format else {
                        throw FeedsError.input("aggregation needs a format", field: "aggregation.format")
                    }
                    return FeedGroupConfig.Aggregation(format: format)
                },
                notification: notification.map {
                    FeedGroupConfig.NotificationSettings(trackSeen: $0.trackSeen ?? true, trackRead: $0.trackRead ?? true)
                },
                stories: stories.map {
                    FeedGroupConfig.StoriesSettings(trackWatched: $0.trackWatched ?? true, skipWatched: $0.skipWatched ?? false)
                },
                activitySelectors: try ViewInputs.selections(activitySelectors), ranking: try ViewInputs.ranking(ranking),
                pushNotification: pushNotification.map {
                    FeedGroupConfig.PushNotificationSettings(enablePush: $0.enablePush, pushTypes: $0.pushTypes)
                },
                custom: try customFields.map(FreeForm.object)
            )
        }
    }
}
