import Logging

/// Where follows live, and the timelines they fill. Every change checks who may make it: a
/// follow or unfollow by the source feed's owner, an answer to a request by the target's owner;
/// the server may do all.
public protocol FollowStore: Sendable {
    /// Makes each source follow its target, all or nothing; a follow that exists is returned as
    /// it is (`created` false). Accepted follows copy the target's recent activities.
    func follow(_ inputs: [FollowInput], by principal: Principal, logger: Logger) async throws
        -> [(follow: Follow, created: Bool)]

    /// Removes a follow or request, by the source's owner (unfollow) or the target's (removing a
    /// follower); unless `keepHistory`, the copies it made leave the source.
    func unfollow(source: FeedID, target: FeedID, keepHistory: Bool, by principal: Principal, logger: Logger) async throws
        -> Follow

    /// Ends each of `pairs` as `unfollow` does, in one transaction, all or nothing; one that does
    /// not exist is not found, or left out with `skipMissing`. Returns the follows ended.
    func unfollow(_ pairs: [UnfollowPair], skipMissing: Bool, by principal: Principal, logger: Logger) async throws
        -> [Follow]

    /// Changes a follow: its custom data and push preference by the source feed's owner, its
    /// follower role by the target feed's owner (the server either).
    func updateFollow(source: FeedID, target: FeedID, _ change: FollowChange, by principal: Principal, logger: Logger)
        async throws -> Follow

    /// Accepts or rejects a pending follow; rejecting an accepted one removes the follower.
    func answer(
        source: FeedID, target: FeedID, accept: Bool, followerRole: String?, by principal: Principal, logger: Logger
    ) async throws -> Follow

    /// A page of follows: the server sees all; a user, those of feeds anyone may read and of their own feeds.
    func queryFollows(_ query: FollowQuery, viewer: Principal, logger: Logger) async throws -> FollowPage

    /// Whether `userID` may read `feed` (owner, open visibility, or an accepted follower).
    func mayRead(_ feed: Feed, userID: String, logger: Logger) async throws -> Bool
}
