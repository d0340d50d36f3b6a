import Foundation

/// One group of an aggregated feed as a page shows it: a notification feed's (its newest
/// notifications, as activities with their `notification_context`) or a stories timeline's (an
/// author's live stories, oldest first), with its counts and marks.
public struct AggregatedGroup: Sendable, Equatable {
    public var group: String
    public var activities: [Activity]
    public var activityCount: Int
    public var userCount: Int
    public var createdAt: Date
    public var updatedAt: Date
    public var isRead: Bool
    public var isSeen: Bool
    /// Whether the reader watched every story of the group; nil where watching is not tracked.
    public var isWatched: Bool?

    public init(
        group: String, activities: [Activity], activityCount: Int, userCount: Int, createdAt: Date, updatedAt: Date,
        isRead: Bool, isSeen: Bool, isWatched: Bool? = nil
    ) {
        (self.group, self.activities, self.activityCount, self.userCount) = (group, activities, activityCount, userCount)
        (self.createdAt, self.updatedAt, self.isRead, self.isSeen, self.isWatched) =
            (createdAt, updatedAt, isRead, isSeen, isWatched)
    }
}
