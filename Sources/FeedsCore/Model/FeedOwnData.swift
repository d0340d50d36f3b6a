/// What a feed is to the user reading it, beside what they may do with it: the follows from
/// their feeds to it (`own_follows`, any status, so a pending request shows), those from its
/// owner's feeds to theirs (`own_followings`, at most `maxFollowings`, read when asked for), and
/// their membership of it (`own_membership`).
public struct FeedOwnData: Sendable, Hashable {
    public var follows: [Follow]
    public var followings: [Follow]?
    public var membership: FeedMember?

    public init(follows: [Follow] = [], followings: [Follow]? = nil, membership: FeedMember? = nil) {
        (self.follows, self.followings, self.membership) = (follows, followings, membership)
    }

    /// Stream's bound on `own_followings`.
    public static let maxFollowings = 5
}
