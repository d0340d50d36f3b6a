/// ChangeFeedVisibility: the new level, and what becomes of waiting follow requests when it no
/// longer asks for them (`auto_approve`, Stream's default, or `reject`).
public struct VisibilityChange: Sendable, Hashable {
    public var visibility: FeedVisibility
    public var approvePending: Bool

    public init(visibility: FeedVisibility, approvePending: Bool) {
        (self.visibility, self.approvePending) = (visibility, approvePending)
    }
}

/// What a visibility change did: the feed as it is now, the follows it ended and the requests it
/// approved, and the members it removed (a `private` feed has none).
public struct ChangedVisibility: Sendable {
    public var feed: Feed
    public var ended: [Follow]
    public var approved: [Follow]
    public var removedMembers: [String]

    public init(feed: Feed, ended: [Follow], approved: [Follow], removedMembers: [String]) {
        (self.feed, self.ended, self.approved, self.removedMembers) = (feed, ended, approved, removedMembers)
    }
}
