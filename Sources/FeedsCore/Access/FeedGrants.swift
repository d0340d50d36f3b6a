/// What the app lets each reader of a feed do at each visibility level: UpdateFeedVisibility sets
/// it, the defaults are `FeedPermissions`' table. The owner and the server may do everything, and
/// changing a feed or answering its followers stays theirs; what members, followers and other
/// users may do (read, engage, post, follow) is the app's to grant. SQL enforces it from the
/// `feed_grants` table (`FeedGrantSQL`), the wire's `own_capabilities` say it from here.
public struct FeedGrants: Sendable, Equatable {
    /// The roles an app grants to, in Stream's names.
    public static let roles: [(role: FeedRole, name: String)] = [
        (.member, "feed_member"), (.follower, "feed_follower"), (.stranger, "user"),
    ]
    /// The actions an app grants; the others are the owner's.
    public static let actions: [FeedAction] = [.read, .engage, .post, .follow]

    /// UpdateFeedVisibility's change: one level's grants, by role.
    public struct Change: Sendable, Equatable {
        public var visibility: FeedVisibility
        public var roles: [FeedRole: Set<FeedAction>]

        public init(visibility: FeedVisibility, roles: [FeedRole: Set<FeedAction>]) {
            (self.visibility, self.roles) = (visibility, roles)
        }
    }

    /// The grants a request goes by where it answers without the database (`own_capabilities`,
    /// the owner's and open feeds' reads): the node's copy when the request came, the defaults
    /// outside a request. Everything the database checks, it checks against its own rows.
    package static var inForce: FeedGrants { RequestScope.current?.grants ?? .defaults }

    /// Each level's grants, by role.
    private var levels: [FeedVisibility: [FeedRole: Set<FeedAction>]]

    /// The rule as `docs/permissions.md` shows it.
    public static let defaults = FeedGrants(
        levels: Dictionary(
            uniqueKeysWithValues: FeedVisibility.allCases.map { visibility in
                (
                    visibility,
                    Dictionary(
                        uniqueKeysWithValues: roles.map { entry in
                            (entry.role, Set(actions.filter { FeedPermissions.allows($0, entry.role, visibility) }))
                        })
                )
            }))

    /// What `role` is granted on a feed of `visibility` itself (a follower or member is also a user:
    /// `allows` adds the user's grants).
    public func granted(_ role: FeedRole, on visibility: FeedVisibility) -> Set<FeedAction> {
        levels[visibility]?[role] ?? []
    }

    /// Whether `role` may do `action` on a feed of `visibility`.
    public func allows(_ action: FeedAction, _ role: FeedRole, _ visibility: FeedVisibility) -> Bool {
        switch role {
        case .server, .owner: true
        case .pending, .stranger: granted(.stranger, on: visibility).contains(action)
        case .follower, .member:
            granted(role, on: visibility).contains(action) || granted(.stranger, on: visibility).contains(action)
        }
    }

    /// The status a follow by `role` starts with on a feed of `visibility`, nil when it is refused:
    /// a `followers` feed is asked, any other granted one followed at once.
    public func followStatus(_ role: FeedRole, _ visibility: FeedVisibility) -> Follow.Status? {
        guard allows(.follow, role, visibility) else { return nil }
        return role == .owner || role == .server || visibility != .followers ? .accepted : .pending
    }

    /// These grants with `visibility`'s roles set to `roles` (roles not named keep theirs).
    /// Engaging with a feed's activities needs reading them, for each role (users first: the
    /// others have their grants too).
    public func setting(_ roles: [FeedRole: Set<FeedAction>], on visibility: FeedVisibility) throws(FeedsError) -> FeedGrants {
        var next = self
        for (role, actions) in roles {
            guard Self.roles.contains(where: { $0.role == role }) else { continue }
            next.levels[visibility, default: [:]][role] = actions.intersection(Self.actions)
        }
        for (role, name) in Self.roles.reversed()
        where next.allows(.engage, role, visibility) && !next.allows(.read, role, visibility) {
            throw .input(
                "\(name) on a \(visibility.rawValue) feed is granted reactions, comments and bookmarks but not reading: grant read-feed too",
                field: "grants.\(name)")
        }
        return next
    }

    /// The visibilities where `role` is granted `action` itself, in the enum's order: the
    /// `feed_grants` table's rows.
    public func visibilities(_ role: FeedRole, _ action: FeedAction) -> [FeedVisibility] {
        FeedVisibility.allCases.filter { granted(role, on: $0).contains(action) }
    }

    /// Grants from the `feed_grants` rows: for each role and action, the visibilities granted.
    public init(rows: [(role: FeedRole, action: FeedAction, visibilities: [FeedVisibility])]) {
        var levels: [FeedVisibility: [FeedRole: Set<FeedAction>]] = [:]
        for visibility in FeedVisibility.allCases {
            for (role, _) in Self.roles { levels[visibility, default: [:]][role] = [] }
        }
        for row in rows where Self.actions.contains(row.action) {
            for visibility in row.visibilities { levels[visibility, default: [:]][row.role, default: []].insert(row.action) }
        }
        self.levels = levels
    }

    private init(levels: [FeedVisibility: [FeedRole: Set<FeedAction>]]) {
        self.levels = levels
    }
}
