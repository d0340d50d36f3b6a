/// Who may read a feed (`FeedVisibility`), as SQL: its owner, anyone for an open feed, the
/// owners of accepted followers for a `followers` feed, and its members for a `members` feed. The
/// one statement of the rule that `mayRead`, the feed and follow listings and `ActivityReadable` use. (Its aliases are `r…`, so
/// that they shadow none of the query around it.)
enum FeedReadable {
    /// A condition on the feed row `feed` for the user bound at `user` (a `$n` placeholder).
    static func predicate(feed: String, user: String) -> String {
        """
        (\(feed).visibility IN ('public', 'visible') OR \(feed).created_by = \(user) OR (\(feed).visibility = 'followers' AND EXISTS (
            SELECT 1 FROM follows rw JOIN feeds rs ON rs.fid = rw.source_fid
            WHERE rw.target_fid = \(feed).fid AND rw.status = 'accepted' AND rs.created_by = \(user))) OR (\(feed).visibility = 'members' AND EXISTS (
            SELECT 1 FROM feed_members rm WHERE rm.fid = \(feed).fid AND rm.user_id = \(user) AND rm.status = 'member')))
        """
    }
}
