import Foundation

/// What QueryActivityReactions asks for: an activity's reactions by type, user and time.
public struct ReactionQuery: Sendable, Hashable {
    public var activityID: String
    public var types: [String]?
    public var userIDs: [String]?
    public var createdAt: [TimeBound] = []
    public var page: KeysetPage

    /// Cursors name the last reaction's user and type.
    public static let cursorKind = "r"

    public init(activityID: String, page: KeysetPage = KeysetPage()) {
        self.activityID = activityID
        self.page = page
    }

    public init(activityID: String, filter: JSONObject?, page: KeysetPage) throws(FeedsError) {
        self.init(activityID: activityID, page: page)
        for (name, condition) in (filter ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch name {
            case "reaction_type", "type": types = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "user_id": userIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "created_at": createdAt = try FilterCondition.timeBounds(condition, field: name)
            case "activity_id":
                // The path names the activity; a filter may repeat it, not name another.
                guard try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"]) == [activityID] else {
                    throw .input("activity_id is the activity of the path", field: "filter.activity_id")
                }
            default:
                throw .input(
                    "filtering reactions on \"\(name)\" is not supported (reaction_type, user_id, created_at)",
                    field: "filter.\(name)")
            }
        }
    }
}

/// One page of reactions, with the cursor to the next.
public struct ReactionPage: Sendable, Hashable {
    public var reactions: [Reaction]
    public var next: KeysetCursor?

    public init(reactions: [Reaction], next: KeysetCursor?) {
        self.reactions = reactions
        self.next = next
    }
}
