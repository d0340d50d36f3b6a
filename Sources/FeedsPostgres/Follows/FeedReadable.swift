/// Who may read a feed (`FeedVisibility`), as SQL: its owner, anyone for an open feed, and the
/// owners of accepted followers for a `followers` feed. The one statement of the rule that both
/// `mayRead` and the feed listings use.
enum FeedReadable {
    /// A condition on the feed row `feed` for the user bound at `user` (a `$n` placeholder).
    static func predicate(feed: String, user: String) -> String {
        """
        (\(feed).visibility IN ('public', 'visible') OR \(feed).created_by = \(user) OR (\(feed).visibility = 'followers' AND EXISTS (
            SELECT 1 FROM follows w JOIN feeds s ON s.fid = w.source_fid
            WHERE w.target_fid = \(feed).fid AND w.status = 'accepted' AND s.created_by = \(user))))
        """
    }
}
