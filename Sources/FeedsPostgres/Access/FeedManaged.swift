import FeedsCore

/// Whether a member may change a feed (`update`) or answer and remove its followers
/// (`manageFollowers`), as SQL: the app grants it to every member (`feed_member`) or to the
/// member role they hold, at the feed's visibility (the `feed_grants` rows). The owner's and the
/// server's own rights are the callers' to add.
enum FeedManaged {
    /// A condition on the feed row `feed` for the user bound at `user`.
    static func predicate(_ action: FeedAction, feed: String, user: String) -> String {
        """
        EXISTS (SELECT 1 FROM feed_members mm JOIN feed_grants mg
                ON mg.action = '\(action.rawValue)' AND mg.role IN ('feed_member', mm.role) AND \(feed).visibility = ANY(mg.visibilities)
            WHERE mm.fid = \(feed).fid AND mm.user_id = \(user) AND mm.status = 'member')
        """
    }
}
