/// Who a caller is to a feed.
public enum FeedRole: String, Sendable, CaseIterable {
    /// A server-side token: acts for anyone.
    case server
    /// The user the feed belongs to.
    case owner
    /// A user whose feed follows it, accepted.
    case follower
    /// A user whose request to follow it waits for the owner.
    case pending
    /// A member of the feed (UpdateFeedMembers, an accepted invite).
    case member
    /// Any other signed-in user.
    case stranger
}

/// What a caller may want of a feed.
public enum FeedAction: String, Sendable, CaseIterable {
    /// Its page, its activities by any path (query, by id, events), their reactions and comments.
    case read
    /// React to, comment on and bookmark its activities.
    case engage
    /// Post into it: AddActivity, and an activity moved into it by an update.
    case post
    /// Change its name, description and custom data.
    case update
    /// Follow it (a request where the owner accepts).
    case follow
    /// Remove one of its followers, or answer a request.
    case manageFollowers
}

/// Who may do what to a feed, as a new app starts: the table of the rule. `docs/permissions.md`
/// shows it and a test checks the two agree; an app changes what members, followers and users
/// may do per level (`FeedGrants`, whose defaults this is). The SQL form is `FeedReadable` (and
/// `ActivityReadable` for activities), and the end-to-end matrix tests hold the server to it.
public enum FeedPermissions {
    /// Whether `role` may do `action` on a feed of `visibility`, by default.
    public static func allows(_ action: FeedAction, _ role: FeedRole, _ visibility: FeedVisibility) -> Bool {
        if role == .server || role == .owner { return true }
        switch action {
        case .read, .engage:
            return visibility.isOpen || (visibility == .followers && role == .follower)
                || (visibility == .members && role == .member)
        case .follow:
            return visibility.followStatus != nil
        case .post, .update, .manageFollowers:
            return false
        }
    }

    /// Whether `principal` may create `feed` (as its owner). Built-in groups belong to their user:
    /// `user:X`, `timeline:X`, `notification:X`, `story:X`, `stories:X`, `foryou:X` are created
    /// only by X or the server, so nobody takes another's feeds first. A feed of another group
    /// (`room:lobby`) is its first creator's.
    public static func mayCreate(_ feed: FeedID, by principal: Principal) -> Bool {
        switch principal {
        case .server: true
        case .user(let id): feed.id == id || !FeedGroup.builtIn.contains(feed.group)
        }
    }

    /// Refuses a user's creation of a feed that belongs to someone else.
    public static func checkCreate(_ feed: FeedID, by principal: Principal) throws(FeedsError) {
        guard mayCreate(feed, by: principal) else {
            throw .notAllowed(
                "\(feed) does not exist, and only \(feed.id) or the server may create it: a \(feed.group) feed belongs to its user"
            )
        }
    }
}
