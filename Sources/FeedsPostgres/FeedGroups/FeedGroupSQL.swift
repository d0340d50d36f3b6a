/// SQL every feed-creating statement shares: a new feed takes its group's default visibility,
/// read from `feed_groups` in the same statement, so no node's copy of the groups can be stale.
enum FeedGroupSQL {
    /// The default visibility of the group named by the SQL expression `group`; `visible` (Stream's
    /// default) for a group with no row.
    static func defaultVisibility(ofGroup group: String) -> String {
        "COALESCE((SELECT default_visibility FROM feed_groups WHERE id = \(group)), 'visible')"
    }
}
