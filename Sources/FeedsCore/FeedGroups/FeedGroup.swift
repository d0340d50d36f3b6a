import Foundation

/// A feed group: how the feeds of one kind behave (`user`, `timeline`, `notification`, or one an
/// app makes, `hashtag`). Stream's six built-ins are rows like any other, so an app may change
/// them; a feed whose group does not exist (or is deleted) is refused.
public struct FeedGroup: Sendable, Equatable {
    public var id: String
    /// A new feed's visibility unless its creator names one.
    public var defaultVisibility: FeedVisibility
    public var config: FeedGroupConfig
    public var custom: JSONObject
    public var createdAt: Date
    public var updatedAt: Date
    /// Soft-deleted: kept and restorable, but its feeds are refused until it is restored.
    public var deletedAt: Date?

    public init(
        id: String, defaultVisibility: FeedVisibility, config: FeedGroupConfig = FeedGroupConfig(), custom: JSONObject = [:],
        createdAt: Date, updatedAt: Date, deletedAt: Date? = nil
    ) {
        (self.id, self.defaultVisibility, self.config, self.custom) = (id, defaultVisibility, config, custom)
        (self.createdAt, self.updatedAt, self.deletedAt) = (createdAt, updatedAt, deletedAt)
    }

    /// The view a read of this group's feeds goes through when its config asks for more than a
    /// feed's own rows, newest first: a ranking, a cutoff, or a selector beyond `following` and
    /// `current_feed`. Without selectors, a ranked group ranks both of those.
    public var view: FeedView? {
        let selectors = config.activitySelectors ?? []
        let plain = selectors.allSatisfy {
            ($0.kind == .following || $0.kind == .currentFeed) && $0.cutoffWindow == nil && $0.cutoffTime == nil
        }
        guard config.ranking != nil || !plain else { return nil }
        let offered =
            selectors.isEmpty ? [.following, .currentFeed].compactMap { try? ActivitySelection(kind: $0, field: "") } : selectors
        return try? FeedView(id: id, selectors: offered, ranking: config.ranking)
    }

    /// Stream's built-in groups: `user`, what a person posts; `timeline`, what the feeds it follows
    /// post; `notification`, the bell; `foryou`; `story` and `stories`. Each feed of these belongs
    /// to the user its id names (`FeedPermissions.mayCreate`); they may be changed, not deleted.
    public static let builtIn: Set<String> = ["user", "timeline", "notification", "foryou", "story", "stories"]

    public var isBuiltIn: Bool { Self.builtIn.contains(id) }
}
