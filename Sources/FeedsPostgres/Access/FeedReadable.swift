import FeedsCore

/// Who may read a feed, as SQL: its owner, and the users, accepted followers' owners and members
/// to whom the app grants reading at its visibility (`FeedGrants`, the `feed_grants` rows). The
/// one statement of the rule that `mayRead`, the feed and follow listings and `ActivityReadable`
/// use; `permits` is the same for engaging and posting. (Its aliases are `r…`, so that they shadow
/// none of the query around it.)
enum FeedReadable {
    /// A condition on the feed row `feed` for the user bound at `user` (a `$n` placeholder).
    static func predicate(feed: String, user: String) -> String {
        permits(.read, feed: feed, user: user)
    }

    /// Whether the user bound at `user` may do `action` (read, engage, post) on the feed row
    /// `feed`. Each role's list is an uncorrelated subquery, read once per statement.
    static func permits(_ action: FeedAction, feed: String, user: String) -> String {
        """
        (\(feed).created_by = \(user) OR \(feed).visibility = ANY(\(granted("user", action)))
            OR (\(feed).visibility = ANY(\(granted("feed_follower", action))) AND EXISTS (
                SELECT 1 FROM follows rw JOIN feeds rs ON rs.fid = rw.source_fid
                WHERE rw.target_fid = \(feed).fid AND rw.status = 'accepted' AND rs.created_by = \(user)))
            OR (\(feed).visibility = ANY(\(granted("feed_member", action))) AND EXISTS (
                SELECT 1 FROM feed_members rm WHERE rm.fid = \(feed).fid AND rm.user_id = \(user) AND rm.status = 'member')))
        """
    }

    /// The visibilities where `role` (Stream's name) is granted `action`: an array, cast so that
    /// `= ANY(…)` takes it as one (not as a subquery's rows).
    private static func granted(_ role: String, _ action: FeedAction) -> String {
        "(SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = '\(role)' AND rg.action = '\(action.rawValue)')::text[]"
    }
}
