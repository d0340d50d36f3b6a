import Foundation

/// A reader's feedback on an activity (ActivityFeedback): hidden from the feed pages they read,
/// and whether they asked for more (1) or less (-1) like it.
public struct ActivityFeedback: Sendable, Hashable {
    public var activityID: String
    public var user: User
    public var hidden: Bool
    public var preference: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(activityID: String, user: User, hidden: Bool, preference: Int, createdAt: Date, updatedAt: Date) {
        (self.activityID, self.user, self.hidden, self.preference) = (activityID, user, hidden, preference)
        (self.createdAt, self.updatedAt) = (createdAt, updatedAt)
    }
}

/// What one ActivityFeedback call changes: `hide`, and the preference `show_more` / `show_less`
/// set (true) or cleared (false). What it leaves nil stays.
public struct ActivityFeedbackChange: Sendable, Hashable {
    public var hide: Bool?
    public var preference: Int?

    public init(hide: Bool?, showLess: Bool?, showMore: Bool?) throws(FeedsError) {
        if showLess == true, showMore == true {
            throw .input("show_less and show_more cannot both be true", field: "show_more")
        }
        self.hide = hide
        if showMore == true {
            preference = 1
        } else if showLess == true {
            preference = -1
        } else if showMore == false || showLess == false {
            preference = 0
        }
        guard hide != nil || preference != nil else { throw .input("give hide, show_less or show_more", field: "hide") }
    }

    /// The event's `action` and `value`, as Stream's `feeds.activity.feedback` names them.
    public var action: (name: String, value: String) {
        if let hide { return ("hide", hide ? "true" : "false") }
        switch preference {
        case 1: return ("show_more", "true")
        case -1: return ("show_less", "true")
        default: return ("show_more", "false")
        }
    }
}
