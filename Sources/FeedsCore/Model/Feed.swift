import Foundation

/// A feed as stored: created by GetOrCreateFeed, or on first use by an activity.
public struct Feed: Sendable, Hashable {
    public var id: FeedID
    public var name: String
    public var description: String
    public var custom: JSONObject
    public var createdBy: User
    public var activityCount: Int
    public var visibility: FeedVisibility
    /// Accepted follows of this feed, and by it.
    public var followerCount: Int
    public var followingCount: Int
    /// Members (status `member`) of the feed.
    public var memberCount: Int = 0
    /// Activities pinned to it.
    public var pinCount: Int = 0
    /// What it is to the user reading it (`own_follows`, `own_membership`), when read for one.
    public var own: FeedOwnData?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: FeedID, name: String, description: String, custom: JSONObject, createdBy: User, activityCount: Int,
        createdAt: Date, updatedAt: Date, visibility: FeedVisibility = .visible, followerCount: Int = 0, followingCount: Int = 0
    ) {
        self.visibility = visibility
        self.followerCount = followerCount
        self.followingCount = followingCount
        self.id = id
        self.name = name
        self.description = description
        self.custom = custom
        self.createdBy = createdBy
        self.activityCount = activityCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
