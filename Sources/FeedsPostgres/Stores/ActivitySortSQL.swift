import FeedsCore

/// The SQL of an activity's (`a`) counts, one place for each: QueryActivities' sorts, the popular
/// selector and the rankings read them from here.
enum ActivitySortSQL {
    /// Stream's `popularity`, as `ActivityEngagement.popularity` counts it.
    static let popularity = "(a.reaction_count + 2 * a.comment_count + 3 * a.bookmark_count)"

    /// The column a sort orders by before `created_at`; none when it is `created_at`.
    static func value(_ field: ActivitySort.Field) -> String? {
        switch field {
        case .createdAt: return nil
        case .popularity: return popularity
        case .reactionCount: return "a.reaction_count"
        case .commentCount: return "a.comment_count"
        case .bookmarkCount: return "a.bookmark_count"
        case .shareCount: return "a.share_count"
        }
    }
}
