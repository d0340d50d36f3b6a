import Foundation

/// A user's Feeds push settings (UpdatePushNotificationPreferences): all pushes or none, each
/// notification type on or off, and a pause. No push is sent from here: a notification that
/// would be pushed goes to the app's webhooks with the user's devices (`feeds.push_notification`).
public struct PushPreferences: Sendable, Equatable, Codable {
    public enum Level: String, Sendable, Codable {
        case all, none
    }

    /// The notification types one may turn off, as Stream's `feeds_preferences` names them.
    public static let types: Set<String> = [
        "follow", "comment", "comment_reply", "comment_reaction", "comment_mention", "reaction", "mention",
    ]
    /// Most entries in `custom_activity_types`.
    public static let maxCustomTypes = 50

    public var level: Level = .all
    /// `all` or `none` per notification type; a type not named is `all`.
    public var types: [String: Level] = [:]
    /// `custom_activity_types`: per activity type, for pushes about activities of that type.
    public var customActivityTypes: [String: Level] = [:]
    public var disabledUntil: Date?

    public init() {}

    /// Whether a notification of `type` is pushed at `now`.
    public func allows(_ type: String, now: Date) -> Bool {
        if let disabledUntil, disabledUntil > now { return false }
        return level == .all && types[type] != Level.none
    }

    /// Whether a new activity of `type` in a feed the user follows (with `push_preference` `all`)
    /// is pushed at `now`: `custom_activity_types` turns a type off.
    public func allowsActivity(ofType type: String, now: Date) -> Bool {
        if let disabledUntil, disabledUntil > now { return false }
        return level == .all && customActivityTypes[type] != Level.none
    }
}
