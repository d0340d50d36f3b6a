/// What the app lets each reader of a feed do at each visibility level: UpdateFeedVisibility sets
/// it, the defaults are `FeedPermissions`' table. The owner and the server may do everything.
/// Members (`feed_member`), followers (`feed_follower`) and other users (`user`) are granted
/// reading, engaging, posting and following; members also changing the feed and answering its
/// followers, which a member role (a member's `role`, such as `feed_moderator`) may add for the
/// members who hold it. SQL enforces it from the `feed_grants` rows (`FeedReadable.permits`,
/// `FeedManaged`); the wire's `own_capabilities` say it from here.
public struct FeedGrants: Sendable, Equatable {
    /// The roles an app grants to, in Stream's names.
    public static let roles: [(role: FeedRole, name: String)] = [
        (.member, "feed_member"), (.follower, "feed_follower"), (.stranger, "user"),
    ]
    /// What users and followers may be granted.
    public static let actions: [FeedAction] = [.read, .engage, .post, .follow]
    /// What members may be granted besides: changing the feed, answering its followers. All a
    /// member role may add.
    public static let managing: [FeedAction] = [.update, .manageFollowers]
    /// At most this many member roles hold grants.
    public static let maxMemberRoles = 20

    /// What `role` may be granted.
    public static func grantable(_ role: FeedRole) -> [FeedAction] {
        role == .member ? actions + managing : actions
    }

    /// UpdateFeedVisibility's change: one level's grants, by role and by member role (an empty
    /// set takes a member role's grants away).
    public struct Change: Sendable, Equatable {
        public var visibility: FeedVisibility
        public var roles: [FeedRole: Set<FeedAction>]
        public var memberRoles: [String: Set<FeedAction>]

        public init(visibility: FeedVisibility, roles: [FeedRole: Set<FeedAction>], memberRoles: [String: Set<FeedAction>] = [:])
        {
            (self.visibility, self.roles, self.memberRoles) = (visibility, roles, memberRoles)
        }
    }

    /// The grants a request goes by where it answers without the database (`own_capabilities`,
    /// the owner's and open feeds' reads): the node's copy, the defaults outside a request.
    /// Everything the database checks, it checks against its own rows.
    package static var inForce: FeedGrants { RequestScope.current?.settings?.feedGrants ?? .defaults }

    /// Each level's grants, by role.
    private var levels: [FeedVisibility: [FeedRole: Set<FeedAction>]]
    /// What member roles add, by role name and level.
    private var memberRoles: [String: [FeedVisibility: Set<FeedAction>]] = [:]

    /// The rule as `docs/permissions.md` shows it.
    public static let defaults = FeedGrants(
        levels: Dictionary(
            uniqueKeysWithValues: FeedVisibility.allCases.map { visibility in
                (
                    visibility,
                    Dictionary(
                        uniqueKeysWithValues: roles.map { entry in
                            (entry.role, Set(grantable(entry.role).filter { FeedPermissions.allows($0, entry.role, visibility) }))
                        })
                )
            }))

    /// What `role` is granted on a feed of `visibility` itself (a follower or member is also a user:
    /// `allows` adds the user's grants).
    public func granted(_ role: FeedRole, on visibility: FeedVisibility) -> Set<FeedAction> {
        levels[visibility]?[role] ?? []
    }

    /// What the member role `name` adds on a feed of `visibility`.
    public func granted(memberRole name: String, on visibility: FeedVisibility) -> Set<FeedAction> {
        memberRoles[name]?[visibility] ?? []
    }

    /// The member roles that hold grants, sorted.
    public var memberRoleNames: [String] { memberRoles.keys.sorted() }

    /// Whether `role` may do `action` on a feed of `visibility`; a member holding the member role
    /// `memberRole` has its grants too.
    public func allows(_ action: FeedAction, _ role: FeedRole, _ visibility: FeedVisibility, memberRole: String? = nil) -> Bool {
        switch role {
        case .server, .owner: true
        case .pending, .stranger: granted(.stranger, on: visibility).contains(action)
        case .follower: granted(.follower, on: visibility).contains(action) || granted(.stranger, on: visibility).contains(action)
        case .member:
            granted(.member, on: visibility).contains(action) || granted(.stranger, on: visibility).contains(action)
                || memberRole.map { granted(memberRole: $0, on: visibility).contains(action) } == true
        }
    }

    /// The status a follow by `role` starts with on a feed of `visibility`, nil when it is refused:
    /// a `followers` feed is asked, any other granted one followed at once.
    public func followStatus(_ role: FeedRole, _ visibility: FeedVisibility) -> Follow.Status? {
        guard allows(.follow, role, visibility) else { return nil }
        return role == .owner || role == .server || visibility != .followers ? .accepted : .pending
    }

    /// These grants with `change` applied: the roles it names get what it lists, the others keep
    /// theirs. Engaging with a feed's activities needs reading them, for each role (users first:
    /// the others have their grants too).
    public func applying(_ change: Change) throws(FeedsError) -> FeedGrants {
        let visibility = change.visibility
        var next = self
        for (role, actions) in change.roles where Self.roles.contains(where: { $0.role == role }) {
            next.levels[visibility, default: [:]][role] = actions.intersection(Self.grantable(role))
        }
        for (name, actions) in change.memberRoles {
            next.memberRoles[name, default: [:]][visibility] = actions.intersection(Self.managing)
            next.memberRoles[name] = next.memberRoles[name]?.filter { !$0.value.isEmpty }
            if next.memberRoles[name]?.isEmpty == true { next.memberRoles[name] = nil }
        }
        guard next.memberRoles.count <= Self.maxMemberRoles else {
            throw .input("at most \(Self.maxMemberRoles) member roles hold grants", field: "grants")
        }
        for (role, name) in Self.roles.reversed()
        where next.allows(.engage, role, visibility) && !next.allows(.read, role, visibility) {
            throw .input(
                "\(name) on a \(visibility.rawValue) feed is granted reactions, comments and bookmarks but not reading: grant read-feed too",
                field: "grants.\(name)")
        }
        return next
    }

    /// The `feed_grants` rows: for each role (Stream's name, or a member role's) and action it may
    /// be granted, the visibilities where it is, in the enum's order.
    public var rows: [(role: String, action: FeedAction, visibilities: [FeedVisibility])] {
        var rows = Self.roles.flatMap { entry in
            Self.grantable(entry.role).map { action in
                (entry.name, action, FeedVisibility.allCases.filter { granted(entry.role, on: $0).contains(action) })
            }
        }
        for name in memberRoleNames {
            for action in Self.managing {
                let visibilities = FeedVisibility.allCases.filter { granted(memberRole: name, on: $0).contains(action) }
                if !visibilities.isEmpty { rows.append((name, action, visibilities)) }
            }
        }
        return rows
    }

    /// Grants from the `feed_grants` rows (a role not among Stream's is a member role).
    public init(rows: [(role: String, action: FeedAction, visibilities: [FeedVisibility])]) {
        var levels: [FeedVisibility: [FeedRole: Set<FeedAction>]] = [:]
        for visibility in FeedVisibility.allCases {
            for (role, _) in Self.roles { levels[visibility, default: [:]][role] = [] }
        }
        var memberRoles: [String: [FeedVisibility: Set<FeedAction>]] = [:]
        for row in rows {
            if let role = Self.roles.first(where: { $0.name == row.role })?.role {
                guard Self.grantable(role).contains(row.action) else { continue }
                for visibility in row.visibilities { levels[visibility, default: [:]][role, default: []].insert(row.action) }
            } else if Self.managing.contains(row.action) {
                for visibility in row.visibilities {
                    memberRoles[row.role, default: [:]][visibility, default: []].insert(row.action)
                }
            }
        }
        self.levels = levels
        self.memberRoles = memberRoles
    }

    private init(levels: [FeedVisibility: [FeedRole: Set<FeedAction>]]) {
        self.levels = levels
    }
}
