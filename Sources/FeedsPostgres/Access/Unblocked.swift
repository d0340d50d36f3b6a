/// Whether two users are clear of each other's blocks, as SQL: neither has blocked the other
/// (`BlockUsers`). The one statement of the rule: activity reads (through `ActivityReadable`),
/// comment and reaction reads, the counts and newest reactions a reader is shown
/// (`EngagementColumns`), and follows use it, never a copy.
enum Unblocked {
    /// A condition on the user ids `user` and `viewer` (columns or `$n` placeholders).
    static func predicate(_ user: String, _ viewer: String) -> String {
        """
        NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = \(viewer) AND ub.blocked_user_id = \(user))
            OR (ub.user_id = \(user) AND ub.blocked_user_id = \(viewer)))
        """
    }

    /// Whether `viewer` (a `$n` placeholder) has blocked anyone or been blocked. It names no
    /// column, so PostgreSQL runs it once where it stands in a statement: a reader without blocks
    /// pays a few index probes a page, and the block-aware parts it guards never run for them.
    static func anyBlock(_ viewer: String) -> String {
        """
        (EXISTS (SELECT 1 FROM user_blocks WHERE user_id = \(viewer))
            OR EXISTS (SELECT 1 FROM user_blocks WHERE blocked_user_id = \(viewer)))
        """
    }

    /// The ids of the users blocked either way with `viewer`, as a subquery.
    static func users(of viewer: String) -> String {
        """
        SELECT blocked_user_id FROM user_blocks WHERE user_id = \(viewer)
            UNION ALL SELECT user_id FROM user_blocks WHERE blocked_user_id = \(viewer)
        """
    }
}
