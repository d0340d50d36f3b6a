/// Activities a reader hid (ActivityFeedback's `hide`), as SQL: they leave the feed pages that
/// reader reads (`ActivityQuerySQL.conditions`, the view pages), and every read of them by that
/// reader says `hidden` (`ActivityRow`). The primary key `(activity_id, user_id)` makes it a probe.
enum ActivityHidden {
    /// Whether the user bound at `user` hid the activity row `activity`.
    static func by(activity: String, user: String) -> String {
        "EXISTS (SELECT 1 FROM activity_feedback af WHERE af.activity_id = \(activity).id AND af.user_id = \(user) AND af.hidden)"
    }
}
