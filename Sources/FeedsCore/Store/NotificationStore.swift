import Logging

/// Where notification feeds live: notifications grouped at write time, and each feed's
/// read and seen watermarks.
public protocol NotificationStore: Sendable {
    /// Adds the notification, or updates the one from the same source, and counts it into its
    /// group; returns what it touched, for `changes` (no group when the actor is gone).
    func add(_ draft: NotificationDraft, format: AggregationFormat, logger: Logger) async throws -> NotificationTouch

    /// Removes the notification from `source`, and its group when it was the last; returns what
    /// it touched, for `changes`.
    func remove(source: String, logger: Logger) async throws -> NotificationTouch?

    /// Each touched feed as it now reads, in one read for them all (`touched`'s order). A group
    /// about an activity that is no longer live reads as gone, and that activity's notifications
    /// are taken back: a delete may have taken them before this one was written.
    func changes(_ touched: [NotificationTouch], logger: Logger) async throws -> [NotificationChange]

    /// Removes every notification about the activity (it was deleted); returns the feeds that changed.
    func removeAll(activityID: String, logger: Logger) async throws -> [String]

    /// A page of the feed's groups, newest first, with the feed's status.
    func page(feed: String, limit: Int, next: String?, logger: Logger) async throws -> NotificationPage

    /// Marks the feed's groups read or seen (all, by moving the watermark, or by id).
    func mark(feed: String, _ mark: NotificationMark, logger: Logger) async throws -> NotificationStatus
}

/// The group of a notification feed a write touched, to read as it then is (`changes`).
public struct NotificationTouch: Sendable, Hashable {
    public var feed: String
    /// Nil: only the feed's status changed.
    public var group: String?
    /// The activity the notification was about: the group shows only while it is live.
    public var activityID: String?

    public init(feed: String, group: String?, activityID: String? = nil) {
        (self.feed, self.group, self.activityID) = (feed, group, activityID)
    }
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
