import Logging

/// Where notification feeds live: notifications grouped at write time, and each feed's
/// read and seen watermarks.
public protocol NotificationStore: Sendable {
    /// Adds the notification, or updates the one from the same source, and its group; returns
    /// the group as it now reads (nil when the actor is gone) and the feed's status.
    func add(_ draft: NotificationDraft, format: AggregationFormat, logger: Logger) async throws -> NotificationChange

    /// Removes the notification from `source`, and its group when it was the last; returns its
    /// feed, the group as it now reads (nil when the group went with it) and the feed's status.
    func remove(source: String, logger: Logger) async throws -> (feed: String, change: NotificationChange)?

    /// Removes every notification about the activity (it was deleted); returns the feeds that changed.
    func removeAll(activityID: String, logger: Logger) async throws -> [String]

    /// A page of the feed's groups, newest first, with the feed's status.
    func page(feed: String, limit: Int, next: String?, logger: Logger) async throws -> NotificationPage

    func status(feed: String, logger: Logger) async throws -> NotificationStatus

    /// Marks the feed's groups read or seen (all, by moving the watermark, or by id).
    func mark(feed: String, _ mark: NotificationMark, logger: Logger) async throws -> NotificationStatus
}

/// A notification feed after a write: the group it touched as it now reads, and the feed's status
/// (what `feeds.notification_feed.updated` carries).
public struct NotificationChange: Sendable {
    public var group: AggregatedGroup?
    public var status: NotificationStatus

    public init(group: AggregatedGroup?, status: NotificationStatus) {
        (self.group, self.status) = (group, status)
    }
}
