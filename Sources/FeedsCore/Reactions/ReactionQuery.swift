import Foundation

/// What QueryActivityReactions and QueryCommentReactions ask for: an activity's or a comment's
/// reactions by type, user and time.
public struct ReactionQuery: Sendable, Hashable {
    public var activityID: String
    /// The comment whose reactions are asked for, instead of the activity's.
    public var commentID: String?
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

    public init(activityID: String, commentID: String? = nil, filter: JSONObject?, page: KeysetPage) throws(FeedsError) {
        self.init(activityID: activityID, page: page)
        self.commentID = commentID
        for (name, condition) in (filter ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch name {
            case "reaction_type", "type": types = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "user_id": userIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "created_at": createdAt = try FilterCondition.timeBounds(condition, field: name)
            case "activity_id" where commentID == nil, "comment_id" where commentID != nil:
                // The path names the object; a filter may repeat it, not name another.
                guard try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"]) == [commentID ?? activityID]
                else { throw .input("\(name) is the object of the path", field: "filter.\(name)") }
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
