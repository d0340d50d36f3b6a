import Foundation

/// A membership level (CreateMembershipLevel): a tier of a feed's audience. A member given the
/// level (UpdateFeedMembers' `membership_level`) reads in full the activities of that feed whose
/// `visibility_tag` is one of its `tags`; other readers get those activities as a `preview`.
/// Levels are the app's, set server-side.
public struct MembershipLevel: Sendable, Hashable {
    public var id: String
    public var name: String
    public var description: String?
    public var priority: Int
    public var tags: [String]
    public var custom: JSONObject
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, name: String, description: String?, priority: Int, tags: [String], custom: JSONObject, createdAt: Date,
        updatedAt: Date
    ) {
        (self.id, self.name, self.description, self.priority, self.tags, self.custom) =
            (id, name, description, priority, tags, custom)
        (self.createdAt, self.updatedAt) = (createdAt, updatedAt)
    }

    /// Most levels an app keeps, and most tags one level gives.
    public static let maxLevels = 1_000
    public static let maxTags = 100
}

/// The fields of a level a create or update gives, checked; nil leaves a field as it is.
public struct MembershipLevelChange: Sendable, Equatable {
    public var name: String?
    public var description: String?
    public var priority: Int?
    public var tags: [String]?
    public var custom: JSONObject?

    public init(name: String?, description: String?, priority: Int?, tags: [String]?, custom: JSONObject?) throws(FeedsError) {
        if let name, !(1...255).contains(name.utf8.count) || name.contains("\u{0}") {
            throw .input("name is 1 to 255 characters", field: "name")
        }
        if let description, description.utf8.count > 1000 || description.contains("\u{0}") {
            throw .input("description is at most 1,000 characters", field: "description")
        }
        if let priority, !(0...Int(Int32.max)).contains(priority) {
            throw .input("priority is 0 to \(Int32.max)", field: "priority")
        }
        if let tags {
            guard tags.count <= MembershipLevel.maxTags else {
                throw .input("a level gives at most \(MembershipLevel.maxTags) tags", field: "tags")
            }
            for tag in tags { try Self.checkTag(tag, field: "tags") }
        }
        if let custom, JSONValue.text(custom).utf8.count > 5_000 {
            throw .input("a level's custom data is at most 5,000 bytes of JSON", field: "custom")
        }
        (self.name, self.description, self.priority, self.custom) = (name, description, priority, custom)
        var seen = Set<String>()
        self.tags = tags?.filter { seen.insert($0).inserted }
    }

    /// A tag: 1 to 32 letters, digits, `_` or `-` (an activity's `visibility_tag` is at most 32).
    public static func checkTag(_ tag: String, field: String) throws(FeedsError) {
        guard (1...32).contains(tag.utf8.count), tag.utf8.allSatisfy(FeedID.isAllowed) else {
            throw .input("a tag is 1 to 32 letters, digits, '_' or '-'", field: field)
        }
    }

    /// A level's id: as a feed group's (letters, digits, `_`, `-`; 1 to 255), or a UUID as
    /// Stream's docs make them.
    public static func checkID(_ id: String) throws(FeedsError) {
        guard (1...255).contains(id.utf8.count), id.utf8.allSatisfy(FeedID.isAllowed) else {
            throw .input("a membership level id is 1 to 255 letters, digits, '_' or '-'", field: "id")
        }
    }
}

/// What QueryMembershipLevels asks for: levels filtered on `id`, `name`, `priority` and `tags`,
/// sorted on `created_at` (default, newest first) or `priority`, a page at a time.
public struct MembershipLevelQuery: Sendable {
    public var ids: [String]?
    public var names: [String]?
    /// Comparisons on priority: (`=`, `>`, `>=`, `<`, `<=`, value).
    public var priority: [(comparison: String, value: Int)] = []
    /// Levels giving any of these tags.
    public var tags: [String]?
    public var byPriority = false
    public var page: KeysetPage

    public init(
        filter: JSONObject?, sort: [(field: String?, direction: Int?)], limit: Int?, next: String?, prev: String?
    ) throws(FeedsError) {
        guard sort.count <= 1, ["created_at", "priority"].contains(sort.first?.field ?? "created_at") else {
            throw .input("membership levels sort on created_at or priority, one field", field: "sort")
        }
        byPriority = sort.first?.field == "priority"
        page = try KeysetPage(
            sort: sort.map { (field: "created_at", direction: $0.direction) }, limit: limit, next: next, prev: prev,
            kind: byPriority ? "lp" : "lc", keyCount: 2, what: "membership levels")
        for (name, condition) in (filter ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch name {
            case "id": ids = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "name": names = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "tags":
                if case .object(let object) = condition, case .string(let tag)? = object["$contains"], object.count == 1 {
                    tags = [tag]
                } else {
                    tags = try FilterCondition.strings(condition, field: name, operators: ["$in"])
                }
            case "priority": priority = try Self.priorityBounds(condition)
            default:
                throw .input(
                    "filtering membership levels on \"\(name)\" is not supported (id, name, priority, tags)",
                    field: "filter.\(name)")
            }
        }
    }

    private static func priorityBounds(_ condition: JSONValue) throws(FeedsError) -> [(comparison: String, value: Int)] {
        let operators = ["$eq": "=", "$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="]
        if case .number(let value) = condition { return [("=", try integer(value))] }
        guard case .object(let object) = condition, !object.isEmpty else {
            throw .input("priority takes a number or $eq, $gt, $gte, $lt, $lte", field: "filter.priority")
        }
        return try object.sorted { $0.key < $1.key }.map { op, operand throws(FeedsError) in
            guard let comparison = operators[op], case .number(let value) = operand else {
                throw .input("priority takes $eq, $gt, $gte, $lt or $lte with a number", field: "filter.priority")
            }
            return (comparison, try integer(value))
        }
    }

    private static func integer(_ value: Double) throws(FeedsError) -> Int {
        guard value.rounded() == value, abs(value) <= Double(Int32.max) else {
            throw .input("priority is a whole number up to \(Int32.max)", field: "filter.priority")
        }
        return Int(value)
    }

    /// The cursor past `level`, for `next`.
    public func cursor(after level: MembershipLevel) -> String {
        KeysetCursor(
            ascending: page.ascending, micros: level.createdAt.microsecondsSince1970, keys: [String(level.priority), level.id]
        ).token(kind: byPriority ? "lp" : "lc")
    }
}

/// A page of membership levels.
public struct MembershipLevelPage: Sendable {
    public var levels: [MembershipLevel]
    public var next: String?

    public init(levels: [MembershipLevel], next: String?) { (self.levels, self.next) = (levels, next) }
}
