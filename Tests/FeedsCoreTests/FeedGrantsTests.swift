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
            let roles = try FeedVisibilityGrants.roles(shown, for: visibility)
            #expect(try FeedGrants.defaults.setting(roles, on: visibility) == FeedGrants.defaults, "\(visibility)")
        }
    }

    @Test func membersMayBeGrantedPosting() throws {
        var shown = FeedVisibilityGrants.grants(.visible, in: .defaults)
        shown["feed_member"] = (shown["feed_member"] ?? []) + ["add-activity"]
        let grants = try FeedGrants.defaults.setting(try FeedVisibilityGrants.roles(shown, for: .visible), on: .visible)
        #expect(grants.allows(.post, .member, .visible))
        #expect(!grants.allows(.post, .stranger, .visible) && !grants.allows(.post, .member, .public))
        #expect(FeedCapabilities.of(.member, visibility: .visible, grants: grants).contains("add-activity"))
        #expect(grants.visibilities(.member, .post) == [.visible])
    }

    @Test func usersMayLoseReadingAndEngaging() throws {
        let grants = try FeedGrants.defaults.setting([.stranger: [.follow]], on: .visible)
        #expect(!grants.allows(.read, .stranger, .visible) && !grants.allows(.engage, .pending, .visible))
        #expect(grants.followStatus(.stranger, .visible) == .accepted)
        #expect(grants.allows(.read, .follower, .visible), "followers keep their own grant")
        #expect(FeedCapabilities.of(.stranger, visibility: .visible, grants: grants) == ["follow", "unfollow"])
    }

    @Test func aFeedsOwnDataNamesTheReadersRoles() throws {
        let grants = try FeedGrants.defaults.setting([.member: [.read, .engage, .post]], on: .visible)
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
        (["feed_member": ["update-feed"]], "grants.feed_member"),
        (["feed_follower": ["update-feed-followers"]], "grants.feed_follower"),
        (["user": ["follow"]], "grants.user"),
    ])
    func whatCannotBeGrantedIsRefused(asked: [String: [String]], field: String) {
        let error = #expect(throws: FeedsError.self) { _ = try FeedVisibilityGrants.roles(asked, for: .visible) }
        #expect(error?.kind == .input && error?.field == field, "\(asked)")
    }

    @Test func engagingWithoutReadingIsRefused() throws {
        let roles = try FeedVisibilityGrants.roles(["user": FeedCapabilities.granted(.engage)], for: .members)
        let error = #expect(throws: FeedsError.self) { _ = try FeedGrants.defaults.setting(roles, on: .members) }
        #expect(error?.field == "grants.user")
    }
}
