import Foundation

/// What QueryComments asks for: comments by id, activity, parent or author, in a thread's orders.
/// A query names at least one of those, so that it reads an index, never every comment.
public struct CommentQuery: Sendable, Hashable {
    public var ids: [String]?
    public var activityIDs: [String]?
    public var parentIDs: [String]?
    public var userIDs: [String]?
    public var createdAt: [TimeBound] = []
    public var sort: CommentSort
    public var limit: Int
    public var cursor: KeysetCursor?
    /// Whose own reactions the comments carry.
    public var ownFieldsOf: String?

    public init(filter: JSONObject, sort: String?, limit: Int?, next: String?, prev: String?) throws(FeedsError) {
        // The thread query's checks of sort, limit and cursors, for any root.
        let page = try CommentThreadQuery(
            root: .activity(""), sort: sort, depth: 0, repliesLimit: 0, limit: limit, next: next, prev: prev)
        self.sort = page.sort
        self.limit = page.limit
        self.cursor = page.cursor
        for (name, condition) in filter.sorted(by: { $0.key < $1.key }) {
            switch name {
            case "id": ids = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "object_id": activityIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "parent_id": parentIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "user_id": userIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "created_at": createdAt = try FilterCondition.timeBounds(condition, field: name)
            case "object_type":
                guard try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"]) == ["activity"] else {
                    throw .input("comments are on activities", field: "filter.object_type")
                }
            case "status":
                guard try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"]) == ["active"] else {
                    throw .input("only active comments are queried", field: "filter.status")
                }
            default:
                throw .input(
                    "filtering comments on \"\(name)\" is not supported (id, object_id, parent_id, user_id, created_at)",
                    field: "filter.\(name)")
            }
        }
        guard ids != nil || activityIDs != nil || parentIDs != nil || userIDs != nil else {
            throw .input("the filter names comments by id, object_id, parent_id or user_id", field: "filter")
        }
    }
}
