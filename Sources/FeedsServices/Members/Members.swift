import FeedsCore
import Logging

/// Feed members changed (UpdateFeedMembers, GetOrCreateFeed's first members, an invite's
/// answer): the feed's watchers get `feeds.feed_member.added`, `.updated` and `.removed`, and a
/// member removed stops watching a feed they may no longer read, once their `.removed` reached
/// them (it travels with the event: `FeedEvent.thenRevoke`).
package struct Members<Store: ActivityStore>: Sendable {
    let members: any MemberStore
    let store: Store
    let events: Events<Store>

    package init(members: any MemberStore, store: Store, events: Events<Store>) {
        (self.members, self.store, self.events) = (members, store, events)
    }

    /// Membership levels: kept with members, and changed with no event (they are the app's).
    package var levels: any MemberStore { members }

    package func update(
        _ feed: FeedID, _ operation: MemberOperation, _ inputs: [FeedMemberInput], principal: Principal, logger: Logger
    ) async throws -> MemberChange {
        let change = try await members.updateMembers(feed, operation, inputs, by: principal, logger: logger)
        for member in change.added { events.member("feeds.feed_member.added", member, in: feed) }
        for member in change.updated { events.member("feeds.feed_member.updated", member, in: feed) }
        guard !change.removedIDs.isEmpty else { return change }
        let read = try await store.feeds([feed], readableBy: nil, logger: logger).first
        for id in change.removedIDs {
            var mayRead = false
            if let read { mayRead = try await store.mayRead(read, userID: id, logger: logger) }
            events.memberRemoved(id, from: feed, endingTheirWatch: !mayRead)
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
