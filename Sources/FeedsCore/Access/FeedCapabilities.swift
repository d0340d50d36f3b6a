/// What a caller may do with a feed, as Stream's `own_capabilities` names it: client UIs offer the
/// post box, the like and comment buttons, follow and edit from this list. It is the app's
/// `FeedGrants` spelt in Stream's capability names, so it says what the server enforces, nothing more.
public enum FeedCapabilities {
    /// The capability names of each action of the table.
    static let names: [FeedAction: [String]] = [
        .read: ["read-feed", "read-activities", "query-follows"],
        .engage: [
            "add-activity-reaction", "delete-own-activity-reaction", "add-comment", "add-comment-reaction",
            "delete-own-comment-reaction", "update-own-comment", "delete-own-comment", "add-activity-bookmark",
            "update-own-activity-bookmark", "delete-own-activity-bookmark",
        ],
        .post: ["add-activity"],
        .update: ["update-feed"],
        .follow: ["follow", "unfollow"],
        .manageFollowers: ["update-feed-followers"],
    ]
    /// Anyone who may read a feed may edit and delete their own activities (in whatever feed).
    static let ownActivities = ["update-own-activity", "delete-own-activity"]
    /// The server's besides.
    static let server = ["update-any-activity", "delete-any-activity", "update-any-comment", "delete-any-comment"]

    /// The capabilities `action` grants, together.
    static func granted(_ action: FeedAction) -> [String] {
        (names[action] ?? []) + (action == .read ? ownActivities : [])
    }

    /// The capabilities of `principal` on `feed` under `grants`, sorted. The reader's roles are
    /// what the feed's own data says (their membership, their follows of it) when it was read with
    /// it. Otherwise a reader who is not the owner is taken for a user; where users may not read
    /// it, for whoever may (they read it), and what both followers and members hold where both may.
    public static func of(_ principal: Principal, on feed: Feed, grants: FeedGrants) -> [String] {
        let visibility = feed.visibility
        guard let roles = roles(of: principal, on: feed, grants: grants) else {
            let readers = [FeedRole.follower, .member].filter { grants.allows(.read, $0, visibility) }
            let held = readers.map { Set(of([$0], visibility: visibility, grants: grants)) }
            return (held.dropFirst().reduce(held.first ?? []) { $0.intersection($1) }).sorted()
        }
        let membership = feed.own?.membership.flatMap { $0.status == .member ? $0.role : nil }
        return of(roles, memberRole: membership, visibility: visibility, grants: grants)
    }

    /// The capabilities of `role` on a feed of `visibility`, sorted.
    public static func of(_ role: FeedRole, visibility: FeedVisibility, grants: FeedGrants) -> [String] {
        of([role], visibility: visibility, grants: grants)
    }

    /// The capabilities of someone holding `roles` (a member may follow too; `memberRole`, their
    /// role as a member), sorted.
    static func of(_ roles: [FeedRole], memberRole: String? = nil, visibility: FeedVisibility, grants: FeedGrants) -> [String] {
        let actions = FeedAction.allCases.filter { action in
            roles.contains { grants.allows(action, $0, visibility, memberRole: memberRole) }
        }
        var capabilities = actions.flatMap(granted)
        if roles.contains(.server) { capabilities += server }
        return capabilities.sorted()
    }

    /// The reader's roles; nil for a reader of a feed users may not read, read without its own data.
    static func roles(of principal: Principal, on feed: Feed, grants: FeedGrants) -> [FeedRole]? {
        guard let user = principal.userID else { return [.server] }
        if user == feed.createdBy.id { return [.owner] }
        if let own = feed.own {
            var roles: [FeedRole] = [own.follows.isEmpty ? .stranger : .pending]
            if own.membership?.status == .member { roles.append(.member) }
            if own.follows.contains(where: { $0.status == .accepted }) { roles.append(.follower) }
            return roles
        }
        return grants.allows(.read, .stranger, feed.visibility) ? [.stranger] : nil
    }
}
