/// Stream's built-in feed groups, and who may read a feed of each unless it says otherwise.
public enum FeedGroup {
    /// `user`: what a person posts. `timeline`: what the feeds it follows post. `notification`,
    /// `foryou`, `story` and `stories` as on Stream.
    public static let known: Set<String> = ["user", "timeline", "notification", "foryou", "story", "stories"]

    /// A new feed's visibility: a person's posts are for everyone (`visible`, Stream's default);
    /// what they follow and are notified of is theirs alone.
    public static func defaultVisibility(of group: String) -> FeedVisibility {
        ["timeline", "notification", "foryou", "stories"].contains(group) ? .private : .visible
    }
}
