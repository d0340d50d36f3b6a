/// The visibility levels' grants as ListFeedVisibilities, GetFeedVisibility and
/// UpdateFeedVisibility spell them: for each level, each role's capabilities in Stream's names
/// (`FeedCapabilities`). A grant is an action's capabilities together, as this server enforces
/// actions (`FeedGrants`); the owner's, and changing a feed or its followers, are fixed.
public enum FeedVisibilityGrants {
    /// Stream's name for the owner's role.
    static let owner = "feed_owner"

    /// Each role's capabilities on a feed of `visibility` under `grants`.
    public static func grants(_ visibility: FeedVisibility, in grants: FeedGrants) -> [String: [String]] {
        var named = [owner: FeedCapabilities.of(.owner, visibility: visibility, grants: grants)]
        for (role, name) in FeedGrants.roles { named[name] = FeedCapabilities.of(role, visibility: visibility, grants: grants) }
        return named
    }

    /// UpdateFeedVisibility's grants as the actions of each role they name. A 400 names the first
    /// role that asks for what cannot be granted: an unknown role or capability, part of an
    /// action's capabilities, the owner's changed, or a change of the feed or its followers.
    public static func roles(_ asked: [String: [String]], for visibility: FeedVisibility) throws(FeedsError)
        -> [FeedRole: Set<FeedAction>]
    {
        var roles: [FeedRole: Set<FeedAction>] = [:]
        for (name, capabilities) in asked.sorted(by: { $0.key < $1.key }) {
            let field = "grants.\(name.prefix(64))"
            let asked = Set(capabilities)
            if name == owner {
                guard asked == Set(FeedCapabilities.of(.owner, visibility: visibility, grants: .defaults)) else {
                    throw .input("the feed's owner keeps every capability on their feed; leave feed_owner out", field: field)
                }
                continue
            }
            guard let role = FeedGrants.roles.first(where: { $0.name == name })?.role else {
                throw .input("roles granted here are feed_member, feed_follower and user (and feed_owner, fixed)", field: field)
            }
            let known = Set(FeedAction.allCases.flatMap { FeedCapabilities.granted($0) })
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
                guard FeedGrants.actions.contains(action) else {
                    throw .input("\(held.joined(separator: ", ")) stays with the feed's owner and the server", field: field)
                }
                actions.insert(action)
            }
            roles[role] = actions
        }
        return roles
    }
}
