import FeedsCore

/// Who may read an activity, as SQL: its author always; anyone else when it is public, at least
/// one of its feeds is readable to them (`FeedReadable`) and neither has blocked the other
/// (`Unblocked`: so a blocked user can neither read nor react to nor comment on the blocker's
/// activities, nor the blocker see theirs). A tagged activity (`visibility` `tag`) is read in full
/// the same way by those its tag is for (`TagReadable`); to the feed's other readers it is listed
/// as a preview (`listed`, and `ActivityRow`'s `preview`), nothing of it but its frame.
/// The one statement of the rule: every activity read (pages, by id, reactions, comments,
/// bookmarks) and every write that needs the activity readable (reacting, commenting) uses it,
/// never a copy.
enum ActivityReadable {
    /// A condition on the activity row `activity` for the user bound at `user` (a `$n` placeholder).
    /// With `.engage`, whether they may react to it, comment on it and bookmark it: the same, with
    /// what the app grants for engaging in place of reading (`FeedReadable.permits`).
    static func predicate(activity: String, user: String, for action: FeedAction = .read) -> String {
        let visible = """
            (\(activity).visibility = 'public' OR (\(activity).visibility = 'tag'
                AND \(TagReadable.predicate(activity: activity, user: user))))
            """
        return rule(activity: activity, user: user, visible: visible, action: action)
    }

    /// The same for a caller that may be the server (the placeholder bound to NULL): all is readable.
    static func predicate(activity: String, userOrServer user: String, for action: FeedAction = .read) -> String {
        "(\(user)::text IS NULL OR \(predicate(activity: activity, user: user, for: action)))"
    }

    /// Whether a page lists the activity to the user: as `predicate`, but a tagged activity is
    /// listed to every reader of its feed (those it is not for get its preview).
    static func listed(activity: String, user: String) -> String {
        rule(activity: activity, user: user, visible: "\(activity).visibility IN ('public', 'tag')", action: .read)
    }

    /// The author, or anyone when `visible` holds, one of its feeds is readable to them and
    /// neither blocked the other.
    private static func rule(activity: String, user: String, visible: String, action: FeedAction) -> String {
        """
        (\(activity).user_id = \(user) OR (\(visible) AND EXISTS (
            SELECT 1 FROM feeds rf WHERE rf.fid = ANY(\(activity).feeds) AND \(FeedReadable.permits(action, feed: "rf", user: user)))
            AND \(Unblocked.predicate("\(activity).user_id", user))))
        """
    }
}

/// Whom a tagged activity is for, as SQL: the owners of its feeds, and their members whose
/// membership level gives its tag (`visibility_tag` in the level's `tags`). The rule is the
/// function `tag_readable` (migration 0039), so that statements planned on every run do not plan
/// it: it runs only for a tagged activity.
enum TagReadable {
    static func predicate(activity: String, user: String) -> String {
        "tag_readable(\(activity).feeds, \(activity).visibility_tag, \(user))"
    }

    /// Whether the row `activity`, listed to `user` (nil: the server), is only their preview.
    static func preview(activity: String, user: String?) -> String {
        guard let user else { return "false" }
        return
            "(\(activity).visibility = 'tag' AND \(activity).user_id <> \(user) AND NOT \(predicate(activity: activity, user: user)))"
    }
}
