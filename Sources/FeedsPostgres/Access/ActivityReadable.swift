/// Who may read an activity, as SQL: its author always; anyone else when it is public, at least
/// one of its feeds is readable to them (`FeedReadable`) and neither has blocked the other
/// (`Unblocked`: so a blocked user can neither read nor react to nor comment on the blocker's
/// activities, nor the blocker see theirs). The one statement of the rule:
/// every activity read (pages, by id, reactions, comments, bookmarks) and every write that needs
/// the activity readable (reacting, commenting) uses it, never a copy.
enum ActivityReadable {
    /// A condition on the activity row `activity` for the user bound at `user` (a `$n` placeholder).
    static func predicate(activity: String, user: String) -> String {
        """
        (\(activity).user_id = \(user) OR (\(activity).visibility = 'public' AND EXISTS (
            SELECT 1 FROM feeds rf WHERE rf.fid = ANY(\(activity).feeds) AND \(FeedReadable.predicate(feed: "rf", user: user)))
            AND \(Unblocked.predicate("\(activity).user_id", user))))
        """
    }

    /// The same for a caller that may be the server (the placeholder bound to NULL): all is readable.
    static func predicate(activity: String, userOrServer user: String) -> String {
        "(\(user)::text IS NULL OR \(predicate(activity: activity, user: user)))"
    }
}
