/// Who may read a feed and follow it, as Stream's feed visibility levels say: the defaults below;
/// an app changes them per level (`FeedGrants`).
public enum FeedVisibility: String, Sendable, Hashable, CaseIterable {
    /// Anyone reads and follows (on Stream anyone may post too; here only the owner, unless granted).
    case `public`
    /// Anyone reads and follows.
    case visible
    /// Anyone may ask to follow; the owner accepts. Only accepted followers read.
    case followers
    /// Only the owner and the feed's members (UpdateFeedMembers) read; nobody else follows.
    case members
    /// Only the owner reads and follows.
    case `private`

    /// Whether a follow from a user who does not own the feed starts accepted, pending, or is refused (nil).
    public var followStatus: Follow.Status? {
        switch self {
        case .public, .visible: .accepted
        case .followers: .pending
        case .members, .private: nil
        }
    }

    /// Whether anyone signed in may read the feed without following it.
    public var isOpen: Bool { self == .public || self == .visible }
}
