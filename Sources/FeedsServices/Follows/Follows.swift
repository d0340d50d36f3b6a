import FeedsCore
import FeedsRealtime
import Logging

/// Follows' workflow: both feeds' groups must exist; who may do what is the store's to check
/// (`FollowStore`, which knows the feeds' owners). New follows are announced and notify when asked;
/// when a follow ends, the follower's sockets stop watching a feed they may no longer read.
package struct Follows<Store: ActivityStore>: Sendable {
    let store: Store
    let feedGroups: FeedGroupService
    let realtime: Realtime
    let events: Events<Store>
    let notifier: Notifier<Store>

    package init(store: Store, feedGroups: FeedGroupService, realtime: Realtime, events: Events<Store>, notifier: Notifier<Store>)
    {
        (self.store, self.feedGroups, self.realtime, self.events, self.notifier) = (store, feedGroups, realtime, events, notifier)
    }

    /// A follow asked for, and whether to notify its target's owner (copying the custom data or not).
    package typealias Asked = (input: FollowInput, notify: NotificationRequest?)

    /// Follow and FollowBatch (`batch`: errors name `follows[i].`): existing follows come back as
    /// they are, and only new ones are announced.
    package func follow(_ asked: [Asked], batch: Bool, principal: Principal, logger: Logger) async throws
        -> [(follow: Follow, created: Bool)]
    {
        for (index, follow) in asked.enumerated() {
            let field = batch ? "follows[\(index)]." : ""
            try await feedGroups.require([follow.input.source], field: field + "source", logger: logger)
            try await feedGroups.require([follow.input.target], field: field + "target", logger: logger)
        }
        let follows = try await store.follow(asked.map(\.input), by: principal, logger: logger)
        for made in follows where made.created { events.follow("feeds.follow.created", made.follow) }
        for (made, asked) in zip(follows, asked) {
            guard let notify = asked.notify else { continue }
            try await notifier.notify(.follow(made.follow, copyCustom: notify.copyCustom), push: notify.push, logger: logger)
        }
        return follows
    }

    /// Unfollow: the follow (or request) removed by either feed's owner, its notification taken back.
    package func unfollow(source: FeedID, target: FeedID, keepHistory: Bool, principal: Principal, logger: Logger)
        async throws -> Follow
    {
        let follow = try await store.unfollow(
            source: source, target: target, keepHistory: keepHistory, by: principal, logger: logger)
        try await ended([follow], logger: logger)
        return follow
    }

    /// UnfollowBatch and GetOrCreateUnfollows (`skipMissing`): each as Unfollow, all or nothing.
    package func unfollow(_ pairs: [UnfollowPair], skipMissing: Bool, principal: Principal, logger: Logger) async throws
        -> [Follow]
    {
        let follows = try await store.unfollow(pairs, skipMissing: skipMissing, by: principal, logger: logger)
        try await ended(follows, logger: logger)
        return follows
    }

    /// UpdateFollow; `feeds.follow.updated`.
    package func update(source: FeedID, target: FeedID, _ change: FollowChange, principal: Principal, logger: Logger)
        async throws -> Follow
    {
        let follow = try await store.updateFollow(source: source, target: target, change, by: principal, logger: logger)
        events.follow("feeds.follow.updated", follow)
        return follow
    }

    /// After follows end: their events, their notifications taken back, and watches revoked.
    private func ended(_ follows: [Follow], logger: Logger) async throws {
        for follow in follows {
            events.follow("feeds.follow.deleted", follow)
            try await notifier.unnotify(
                source: NotificationDraft.followSource(source: follow.source.id, target: follow.target.id), logger: logger)
            try await revokeUnlessReadable(follow, logger: logger)
        }
    }

    /// AcceptFollow and RejectFollow, by the target's owner.
    package func answer(
        source: FeedID, target: FeedID, accept: Bool, followerRole: String?, principal: Principal, logger: Logger
    ) async throws -> Follow {
        let follow = try await store.answer(
            source: source, target: target, accept: accept, followerRole: followerRole, by: principal, logger: logger)
        events.follow("feeds.follow.updated", follow)
        if !accept { try await revokeUnlessReadable(follow, logger: logger) }
        return follow
    }

    /// After a follow ends, the follower's sockets stop watching the feed they no longer may read
    /// (a `followers` feed, unless another of their feeds still follows it).
    private func revokeUnlessReadable(_ follow: Follow, logger: Logger) async throws {
        let (feed, userID) = (follow.target, follow.source.createdBy.id)
        guard try await !store.mayRead(feed, userID: userID, logger: logger) else { return }
        try await realtime.revoke(feed.id.description, from: userID)
    }
}
