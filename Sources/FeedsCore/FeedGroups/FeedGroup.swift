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

    /// Stream's built-in groups: `user`, what a person posts; `timeline`, what the feeds it follows
    /// post; `notification`, the bell; `foryou`; `story` and `stories`. Each feed of these belongs
    /// to the user its id names (`FeedPermissions.mayCreate`); they may be changed, not deleted.
    public static let builtIn: Set<String> = ["user", "timeline", "notification", "foryou", "story", "stories"]

    public var isBuiltIn: Bool { Self.builtIn.contains(id) }
}
