import FeedsAPI
import FeedsCore

extension Wire {
    /// A feed group as Stream's `FeedGroupResponse` shows it.
    package static func feedGroup(_ group: FeedGroup) throws -> Components.Schemas.FeedGroupResponse {
        let config = group.config
        return Components.Schemas.FeedGroupResponse(
            activitySelectors: try config.activitySelectors?.map(selector),
            aggregation: config.aggregation.map { .init(format: $0.format) },
            custom: .init(additionalProperties: try FreeForm.containers(group.custom)),
            defaultVisibility: .init(rawValue: group.defaultVisibility.rawValue),
            notification: config.notification.map { .init(trackRead: $0.trackRead, trackSeen: $0.trackSeen) },
            pushNotification: config.pushNotification.map { .init(enablePush: $0.enablePush, pushTypes: $0.pushTypes) },
            ranking: try config.ranking.map(ranking),
            stories: config.stories.map { .init(skipWatched: $0.skipWatched, trackWatched: $0.trackWatched) },
            createdAt: WireTime.nanoseconds(group.createdAt),
            deletedAt: group.deletedAt.map(WireTime.nanoseconds),
            id: group.id,
            updatedAt: WireTime.nanoseconds(group.updatedAt)
        )
    }
}
