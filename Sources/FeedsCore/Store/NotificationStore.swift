import Logging

/// Where notification feeds live: notifications grouped at write time, and each feed's
/// read and seen watermarks.
public protocol NotificationStore: Sendable {
    /// Adds the notification, or updates the one from the same source, and its group; returns
    /// the group as it now reads (nil when the actor is gone).
    func add(_ draft: NotificationDraft, format: AggregationFormat, logger: Logger) async throws -> AggregatedGroup?

    /// Removes the notification from `source`, and its group when it was the last; returns its
    /// feed, and the group as it now reads (nil when the group went with it).
    func remove(source: String, logger: Logger) async throws -> (feed: String, group: AggregatedGroup?)?

    /// A page of the feed's groups, newest first, with the feed's status.
    /// Removes every notification about the activity (it was deleted); returns the feeds that changed.
    func removeAll(activityID: String, logger: Logger) async throws -> [String]

    func page(feed: String, limit: Int, next: String?, logger: Logger) async throws -> NotificationPage

    func status(feed: String, logger: Logger) async throws -> NotificationStatus

    /// Marks the feed's groups read or seen (all, by moving the watermark, or by id).
    func mark(feed: String, _ mark: NotificationMark, logger: Logger) async throws -> NotificationStatus
}
