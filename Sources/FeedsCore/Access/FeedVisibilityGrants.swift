/// The visibility levels as ListFeedVisibilities and GetFeedVisibility show them: for each level,
/// what each role is granted, in Stream's role and capability names. It is `FeedPermissions` read
/// per role (`FeedCapabilities`), so it says what the server enforces. The table is this
/// server's rule, fixed: UpdateFeedVisibility accepts the grants as they are and refuses any other.
public enum FeedVisibilityGrants {
    /// Stream's name for each role a feed's reader can have (the server and pending followers
    /// are not granted per level).
    static let roles: [(role: FeedRole, name: String)] = [
        (.owner, "feed_owner"), (.member, "feed_member"), (.follower, "feed_follower"), (.stranger, "user"),
    ]

    /// Each role's capabilities on a feed of `visibility`.
    public static func grants(_ visibility: FeedVisibility) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: roles.map { ($0.name, FeedCapabilities.of($0.role, visibility: visibility)) })
    }

    /// UpdateFeedVisibility's check: the grants asked for must be those enforced. A 400 names the
    /// first role whose grants differ and what differs.
    public static func check(_ asked: [String: [String]], for visibility: FeedVisibility) throws(FeedsError) {
        let enforced = grants(visibility)
        for (role, capabilities) in asked.sorted(by: { $0.key < $1.key }) {
            let field = "grants.\(role.prefix(64))"
            guard let fixed = enforced[role] else {
                throw .input("roles here are \(enforced.keys.sorted().joined(separator: ", "))", field: field)
            }
            let (wanted, held) = (Set(capabilities), Set(fixed))
            if let added = wanted.subtracting(held).sorted().first {
                throw .input(
                    "this server's grants are fixed (docs/permissions.md): \(role) on a \(visibility.rawValue) feed is not granted \(added.prefix(64))",
                    field: field)
            }
            if let removed = held.subtracting(wanted).sorted().first {
                throw .input(
                    "this server's grants are fixed (docs/permissions.md): \(role) on a \(visibility.rawValue) feed keeps \(removed)",
                    field: field)
            }
        }
    }
}
