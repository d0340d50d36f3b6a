/// Whether two users are clear of each other's blocks, as SQL: neither has blocked the other
/// (`BlockUsers`). The one statement of the rule: activity reads (through `ActivityReadable`),
/// comment and reaction reads, and follows use it, never a copy.
enum Unblocked {
    /// A condition on the user ids `user` and `viewer` (columns or `$n` placeholders).
    static func predicate(_ user: String, _ viewer: String) -> String {
        """
        NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = \(viewer) AND ub.blocked_user_id = \(user))
            OR (ub.user_id = \(user) AND ub.blocked_user_id = \(viewer)))
        """
    }
}
