/// The visibility levels' grants as ListFeedVisibilities, GetFeedVisibility and
/// UpdateFeedVisibility spell them: for each level, each role's capabilities in Stream's names
/// (`FeedCapabilities`). A grant is an action's capabilities together, as this server enforces
/// actions (`FeedGrants`); the owner's are fixed.
public enum FeedVisibilityGrants {
    /// Stream's name for the owner's role.
    static let owner = "feed_owner"

    /// Each role's capabilities on a feed of `visibility` under `grants`; a member role's are
    /// what it adds to `feed_member`'s.
    public static func grants(_ visibility: FeedVisibility, in grants: FeedGrants) -> [String: [String]] {
        var named = [owner: FeedCapabilities.of(.owner, visibility: visibility, grants: grants)]
        for (role, name) in FeedGrants.roles { named[name] = FeedCapabilities.of(role, visibility: visibility, grants: grants) }
        for name in grants.memberRoleNames {
            let added = grants.granted(memberRole: name, on: visibility)
            if !added.isEmpty {
                named[name] = FeedAction.allCases.filter(added.contains).flatMap(FeedCapabilities.granted).sorted()
            }
        }
        return named
    }

    /// UpdateFeedVisibility's grants as a change of `visibility`'s. A role not among Stream's is a
    /// member role: what members holding it may do besides `feed_member`'s (changing the feed,
    /// answering its followers; none takes its grants away). A 400 names the first role that asks
    /// for what cannot be granted: part of an action's capabilities, an unknown capability, the
    /// owner's changed, or what its role may not hold.
    public static func change(_ asked: [String: [String]], for visibility: FeedVisibility) throws(FeedsError) -> FeedGrants.Change
    {
        var change = FeedGrants.Change(visibility: visibility, roles: [:])
        for (name, capabilities) in asked.sorted(by: { $0.key < $1.key }) {
            let field = "grants.\(name.prefix(64))"
            if name == owner {
                guard Set(capabilities) == Set(FeedCapabilities.of(.owner, visibility: visibility, grants: .defaults)) else {
                    throw .input("the feed's owner keeps every capability on their feed; leave feed_owner out", field: field)
                }
                continue
            }
            let actions = try self.actions(Set(capabilities), field: field)
            if let role = FeedGrants.roles.first(where: { $0.name == name })?.role {
                if let refused = actions.subtracting(FeedGrants.grantable(role)).first {
                    throw .input(
                        "\(FeedCapabilities.granted(refused).joined(separator: ", ")) stays with the feed's owner and its members",
                        field: field)
                }
                change.roles[role] = actions
            } else {
                guard (1...64).contains(name.utf8.count), name.utf8.allSatisfy(FeedID.isAllowed) else {
                    throw .input(
                        "a role here is feed_member, feed_follower, user or a member role (1–64 letters, digits, _ and -)",
                        field: field)
                }
                if let refused = actions.subtracting(FeedGrants.managing).first {
                    throw .input(
                        "a member role adds update-feed and update-feed-followers only; "
                            + "\(FeedCapabilities.granted(refused).joined(separator: ", ")) is feed_member's to grant",
                        field: field)
                }
                change.memberRoles[name] = actions
            }
        }
        return change
    }

    /// The actions whose capabilities `asked` holds, each whole.
    private static func actions(_ asked: Set<String>, field: String) throws(FeedsError) -> Set<FeedAction> {
        let known = Set(FeedAction.allCases.flatMap(FeedCapabilities.granted))
        if let unknown = asked.subtracting(known).sorted().first {
            throw .input("\(unknown.prefix(64)) is not a feed capability this server knows", field: field)
        }
        var actions: Set<FeedAction> = []
        for action in FeedAction.allCases {
            let together = FeedCapabilities.granted(action)
            let held = together.filter(asked.contains)
            if held.isEmpty { continue }
            guard held.count == together.count else {
                let missing = together.filter { !asked.contains($0) }
                throw .input(
                    "\(held[0]) is granted with \(missing.joined(separator: ", ")) here "
                        + "(one action, enforced as one): grant them together",
                    field: field)
            }
            actions.insert(action)
        }
        return actions
    }
}
