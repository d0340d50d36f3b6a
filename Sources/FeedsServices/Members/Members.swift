import FeedsCore
import Logging

/// Feed members changed (UpdateFeedMembers, GetOrCreateFeed's first members, an invite's
/// answer): the feed's watchers get `feeds.feed_member.added`, `.updated` and `.removed`, and a
/// member removed stops watching a feed they may no longer read.
package struct Members<Store: ActivityStore>: Sendable {
    let members: any MemberStore
    let store: Store
    let events: Events<Store>

    package init(members: any MemberStore, store: Store, events: Events<Store>) {
        (self.members, self.store, self.events) = (members, store, events)
    }

    package func update(
        _ feed: FeedID, _ operation: MemberOperation, _ inputs: [FeedMemberInput], principal: Principal, logger: Logger
    ) async throws -> MemberChange {
        let change = try await members.updateMembers(feed, operation, inputs, by: principal, logger: logger)
        for member in change.added { events.member("feeds.feed_member.added", member, in: feed) }
        for member in change.updated { events.member("feeds.feed_member.updated", member, in: feed) }
        guard !change.removedIDs.isEmpty else { return change }
        for id in change.removedIDs { events.memberRemoved(id, from: feed) }
        if let read = try await store.feeds([feed], readableBy: nil, logger: logger).first {
            for id in change.removedIDs where try await !store.mayRead(read, userID: id, logger: logger) {
                try await events.realtime.revoke(feed.description, from: id)
            }
        }
        return change
    }

    /// `user` accepts or rejects their invite: `feeds.feed_member.updated` either way.
    package func answer(_ feed: FeedID, user: String, accept: Bool, logger: Logger) async throws -> FeedMember {
        let member = try await members.answerInvite(feed, user: user, accept: accept, logger: logger)
        events.member("feeds.feed_member.updated", member, in: feed)
        return member
    }
}
