/// The app's feed groups as this node last loaded them (with the app settings, and reloaded
/// with them on every change): what a request checks its feeds' groups against without a query.
public struct FeedGroups: Sendable, Equatable {
    public private(set) var byID: [String: FeedGroup]
    /// The notification group's format, Stream's unless the app changed it: parsed once a load,
    /// not on each notification.
    public let notificationFormat: AggregationFormat

    public init(_ groups: [FeedGroup] = []) {
        byID = Dictionary(groups.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        notificationFormat =
            Self.live(byID["notification"])?.config.aggregation.flatMap { try? AggregationFormat($0.format) } ?? .notification
    }

    /// The group named `id`, unless it is missing or soft-deleted.
    public func live(_ id: String) -> FeedGroup? {
        Self.live(byID[id])
    }

    private static func live(_ group: FeedGroup?) -> FeedGroup? {
        group?.deletedAt == nil ? group : nil
    }

    /// Refuses a feed whose group does not exist, as Stream does.
    public func require(_ feed: FeedID, field: String = "feeds") throws(FeedsError) {
        guard live(feed.group) == nil else { return }
        throw .input(
            "feed group \"\(feed.group)\" does not exist; create it first (POST /api/v2/feeds/feed_groups, server-side)",
            field: field)
    }

    /// Refuses the first of `feeds` whose group does not exist.
    public func requireAll(_ feeds: [FeedID], field: String = "feeds") throws(FeedsError) {
        for feed in feeds { try require(feed, field: field) }
    }
}
