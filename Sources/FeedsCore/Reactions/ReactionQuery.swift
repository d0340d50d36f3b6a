import Foundation

/// What QueryActivityReactions and QueryCommentReactions ask for: an activity's or a comment's
/// reactions by type, user and time; and BatchQueryActivityReactions and
/// BatchQueryCommentReactions: one user's across up to 100 activities or comments.
public struct ReactionQuery: Sendable, Hashable {
    public var activityID: String
    /// The comment whose reactions are asked for, instead of the activity's.
    public var commentID: String?
    /// A batch query's objects: activities, or comments.
    public struct Batch: Sendable, Hashable {
        public var ids: [String]
        public var ofComments: Bool
    }
    public var batch: Batch?
    public var types: [String]?
    public var userIDs: [String]?
    public var createdAt: [TimeBound] = []
    public var page: KeysetPage

    /// Cursors name the last reaction's user and type (and in a batch, its object).
    public static let cursorKind = "r"
    /// A batch names at most this many objects.
    public static let maxBatch = 100

    public init(activityID: String, page: KeysetPage = KeysetPage()) {
        self.activityID = activityID
        self.page = page
    }

    public init(activityID: String, commentID: String? = nil, filter: JSONObject?, page: KeysetPage) throws(FeedsError) {
        self.init(activityID: activityID, page: page)
        self.commentID = commentID
        let objects = try read(filter, objectField: commentID == nil ? "activity_id" : "comment_id")
        // The path names the object; a filter may repeat it, not name another.
        if let objects, objects != [commentID ?? activityID] {
            let field = commentID == nil ? "activity_id" : "comment_id"
            throw .input("\(field) is the object of the path", field: "filter.\(field)")
        }
    }

    /// A batch query of `userID`'s reactions across `ids` (activities', or comments'); a filter
    /// on the objects narrows them, one on `user_id` may name only that user.
    public init(batch ids: [String], ofComments: Bool, userID: String, filter: JSONObject?, page: KeysetPage)
        throws(FeedsError)
    {
        let field = ofComments ? "comment_ids" : "activity_ids"
        guard (1...Self.maxBatch).contains(ids.count) else { throw .input("\(field) holds 1 to \(Self.maxBatch) ids", field: field) }
        for id in ids where !(1...255).contains(id.utf8.count) { throw .input("an id is 1 to 255 bytes", field: field) }
        self.init(activityID: "", page: page)
        var narrowed = Array(Set(ids)).sorted()
        if let objects = try read(filter, objectField: ofComments ? "comment_id" : "activity_id") {
            narrowed = narrowed.filter(objects.contains)
        }
        if let named = userIDs, named != [userID] {
            throw .input("a batch query is of one user's reactions: \(userID)'s", field: "filter.user_id")
        }
        userIDs = [userID]
        batch = Batch(ids: narrowed, ofComments: ofComments)
    }

    /// Reads `filter` into the query; returns the objects it names in `objectField`, if any.
    private mutating func read(_ filter: JSONObject?, objectField: String) throws(FeedsError) -> [String]? {
        var objects: [String]?
        for (name, condition) in (filter ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch name {
            case "reaction_type", "type": types = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "user_id": userIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "created_at": createdAt = try FilterCondition.timeBounds(condition, field: name)
            case objectField: objects = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            default:
                throw .input(
                    "filtering reactions on \"\(name)\" is not supported (reaction_type, user_id, created_at, \(objectField))",
                    field: "filter.\(name)")
            }
        }
        return objects
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
