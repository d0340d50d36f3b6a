import Foundation
import Testing

@testable import FeedsCore

/// The app's grants: the defaults are the documented table, UpdateFeedVisibility's Stream-named
/// grants map to whole actions, and what cannot be granted is a 400 naming the role.
@Suite struct FeedGrantsTests {
    @Test func theDefaultsAreTheTable() {
        for visibility in FeedVisibility.allCases {
            for role in FeedRole.allCases {
                for action in FeedAction.allCases {
                    #expect(
                        FeedGrants.defaults.allows(action, role, visibility) == FeedPermissions.allows(action, role, visibility),
                        "\(action) \(role) \(visibility)")
                }
                #expect(FeedGrants.defaults.followStatus(role, visibility) == Self.documentedFollow(role, visibility))
            }
        }
    }

    static func documentedFollow(_ role: FeedRole, _ visibility: FeedVisibility) -> Follow.Status? {
        guard FeedPermissions.allows(.follow, role, visibility) else { return nil }
        return role == .owner || role == .server ? .accepted : visibility.followStatus
    }

    @Test func theWireFormReadsBackAsItWasShown() throws {
        for visibility in FeedVisibility.allCases {
            let shown = FeedVisibilityGrants.grants(visibility, in: .defaults)
            let change = try FeedVisibilityGrants.change(shown, for: visibility)
            #expect(try FeedGrants.defaults.applying(change) == FeedGrants.defaults, "\(visibility)")
        }
    }

    @Test func membersMayBeGrantedPosting() throws {
        var shown = FeedVisibilityGrants.grants(.visible, in: .defaults)
        shown["feed_member"] = (shown["feed_member"] ?? []) + ["add-activity"]
        let grants = try FeedGrants.defaults.applying(try FeedVisibilityGrants.change(shown, for: .visible))
        #expect(grants.allows(.post, .member, .visible))
        #expect(!grants.allows(.post, .stranger, .visible) && !grants.allows(.post, .member, .public))
        #expect(FeedCapabilities.of(.member, visibility: .visible, grants: grants).contains("add-activity"))
        #expect(grants.rows.contains { $0.role == "feed_member" && $0.action == .post && $0.visibilities == [.visible] })
    }

    @Test func usersMayLoseReadingAndEngaging() throws {
        let grants = try FeedGrants.defaults.applying(.init(visibility: .visible, roles: [.stranger: [.follow]]))
        #expect(!grants.allows(.read, .stranger, .visible) && !grants.allows(.engage, .pending, .visible))
        #expect(grants.followStatus(.stranger, .visible) == .accepted)
        #expect(grants.allows(.read, .follower, .visible), "followers keep their own grant")
        #expect(FeedCapabilities.of(.stranger, visibility: .visible, grants: grants) == ["follow", "unfollow"])
    }

    @Test func aFeedsOwnDataNamesTheReadersRoles() throws {
        let grants = try FeedGrants.defaults.applying(.init(visibility: .visible, roles: [.member: [.read, .engage, .post]]))
        let now = Date()
        var feed = Feed(
            id: try FeedID("user:a"), name: "", description: "", custom: [:],
            createdBy: User(id: "a", createdAt: now, updatedAt: now),
            activityCount: 0, createdAt: now, updatedAt: now)
        #expect(!FeedCapabilities.of(.user("b"), on: feed, grants: grants).contains("add-activity"))
        feed.own = FeedOwnData(
            membership: FeedMember(
                feed: feed.id, user: User(id: "b", createdAt: now, updatedAt: now), role: "member", status: .member, custom: [:],
                createdAt: now, updatedAt: now, inviteAcceptedAt: nil, inviteRejectedAt: nil))
        #expect(FeedCapabilities.of(.user("b"), on: feed, grants: grants).contains("add-activity"))
        #expect(FeedCapabilities.of(.user("a"), on: feed, grants: grants).contains("update-feed"))
    }

    @Test(arguments: [
        (["feed_owner": ["read-feed"]], "grants.feed_owner"),
        (["moderator": ["read-feed"]], "grants.moderator"),
        (["user": ["read-feed"]], "grants.user"),
        (["user": ["fly"]], "grants.user"),
        (["feed_follower": ["update-feed-followers"]], "grants.feed_follower"),
        (["user": ["update-feed"]], "grants.user"),
        (["feed_moderator": ["add-activity"]], "grants.feed_moderator"),
        (["bad role!": ["update-feed"]], "grants.bad role!"),
        (["user": ["follow"]], "grants.user"),
    ])
    func whatCannotBeGrantedIsRefused(asked: [String: [String]], field: String) {
        let error = #expect(throws: FeedsError.self) { _ = try FeedVisibilityGrants.change(asked, for: .visible) }
        #expect(error?.kind == .input && error?.field == field, "\(asked)")
    }

    @Test func engagingWithoutReadingIsRefused() throws {
        let change = try FeedVisibilityGrants.change(["user": FeedCapabilities.granted(.engage)], for: .members)
        let error = #expect(throws: FeedsError.self) { _ = try FeedGrants.defaults.applying(change) }
        #expect(error?.field == "grants.user")
    }

    @Test func aMemberRoleAddsChangingTheFeedForItsMembers() throws {
        let change = try FeedVisibilityGrants.change(
            ["feed_moderator": ["update-feed", "update-feed-followers"], "feed_member": FeedCapabilities.granted(.read)],
            for: .visible)
        let grants = try FeedGrants.defaults.applying(change)
        #expect(grants.allows(.update, .member, .visible, memberRole: "feed_moderator"))
        #expect(
            !grants.allows(.update, .member, .visible) && !grants.allows(.update, .member, .public, memberRole: "feed_moderator"))
        #expect(grants.memberRoleNames == ["feed_moderator"])
        #expect(FeedVisibilityGrants.grants(.visible, in: grants)["feed_moderator"] == ["update-feed", "update-feed-followers"])
        #expect(grants.rows.contains { $0.role == "feed_moderator" && $0.action == .update && $0.visibilities == [.visible] })
        #expect(FeedGrants(rows: grants.rows) == grants)
        // An empty list takes the role's grants away.
        let back = try grants.applying(try FeedVisibilityGrants.change(["feed_moderator": []], for: .visible))
        #expect(back.memberRoleNames.isEmpty)
        let many = Dictionary(uniqueKeysWithValues: (0...FeedGrants.maxMemberRoles).map { ("role\($0)", ["update-feed"]) })
        #expect(throws: FeedsError.self) {
            _ = try FeedGrants.defaults.applying(try FeedVisibilityGrants.change(many, for: .visible))
        }
    }

    @Test func aReaderReadWithoutTheirOwnDataIsClaimedNoMoreThanBothMayDo() throws {
        let now = Date()
        // Members read followers-only feeds too, but only followers engage there.
        let grants = try FeedGrants.defaults.applying(.init(visibility: .followers, roles: [.member: [.read]]))
        let feed = Feed(
            id: try FeedID("user:a"), name: "", description: "", custom: [:],
            createdBy: User(id: "a", createdAt: now, updatedAt: now),
            activityCount: 0, createdAt: now, updatedAt: now, visibility: .followers)
        let claimed = FeedCapabilities.of(.user("b"), on: feed, grants: grants)
        #expect(claimed.contains("read-feed") && !claimed.contains("add-comment"), "\(claimed)")
        #expect(FeedCapabilities.of(.user("b"), on: feed, grants: .defaults).contains("add-comment"), "a follower's, by default")
    }
}
