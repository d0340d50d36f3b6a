/// What QueryUsers asks for: filters, an order, and a page by offset, as Stream's QueryUsers pages.
public struct UserQuery: Sendable, Hashable {
    public enum SortField: String, Sendable, Hashable, CaseIterable {
        case id, name
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public struct Order: Sendable, Hashable {
        public var field: SortField
        public var ascending: Bool

        public init(_ field: SortField, ascending: Bool) {
            self.field = field
            self.ascending = ascending
        }
    }

    public var ids: [String]?
    /// Users whose id starts with this (`id` `$autocomplete`), among the first
    /// `autocompleteCandidates` such ids.
    public var idPrefix: String?
    public var names: [String]?
    /// Users with a word of their name starting with this, ignoring case (`name` `$autocomplete`),
    /// among the first `autocompleteCandidates` users whose word starts with its first word.
    public var nameWordPrefix: String?
    /// The most users an `$autocomplete` looks at: a text that many names (or ids) start with
    /// answers from the first of them, in word (or id) order, not from every user.
    public static let autocompleteCandidates = 1_000
    public var roles: [String]?
    public var createdAt: [TimeBound] = []
    public var updatedAt: [TimeBound] = []
    public var sort: [Order] = [Order(.createdAt, ascending: false)]
    public var limit: Int
    public var offset: Int

    public static let defaultLimit = 30
    public static let maxLimit = 100
    public static let maxOffset = 1000

    public init(limit: Int = UserQuery.defaultLimit, offset: Int = 0) {
        self.limit = limit
        self.offset = offset
    }

    /// Reads a payload's `filter_conditions`, `sort`, `limit` and `offset`.
    public init(
        filter: JSONObject, sort: [(field: String?, direction: Int?)], limit: Int?, offset: Int?
    ) throws(FeedsError) {
        let limit = limit ?? Self.defaultLimit, offset = offset ?? 0
        guard (0...Self.maxLimit).contains(limit) else {
            throw .input("limit must be between 0 and \(Self.maxLimit)", field: "limit")
        }
        guard (0...Self.maxOffset).contains(offset) else {
            throw .input("offset must be between 0 and \(Self.maxOffset)", field: "offset")
        }
        self.init(limit: limit == 0 ? Self.defaultLimit : limit, offset: offset)
        guard sort.count <= 5 else { throw .input("sort takes at most 5 fields", field: "sort") }
        if !sort.isEmpty {
            self.sort = try sort.map { order throws(FeedsError) in
                guard let name = order.field, let field = SortField(rawValue: name) else {
                    throw .input("users sort on id, name, created_at or updated_at", field: "sort")
                }
                guard [nil, 1, -1].contains(order.direction) else { throw .input("direction is 1 or -1", field: "sort") }
                return Order(field, ascending: order.direction != -1)
            }
        }
        for (field, condition) in filter.sorted(by: { $0.key < $1.key }) {
            switch field {
            case "id":
                if let prefix = try Self.autocomplete(condition, field: field) { idPrefix = prefix; continue }
                ids = try FilterCondition.strings(condition, field: field, operators: ["$eq", "$in"])
            case "name":
                if let prefix = try Self.autocomplete(condition, field: field) { nameWordPrefix = prefix; continue }
                names = try FilterCondition.strings(condition, field: field, operators: ["$eq", "$in"])
            case "role": roles = try FilterCondition.strings(condition, field: field, operators: ["$eq", "$in"])
            case "created_at": createdAt = try FilterCondition.timeBounds(condition, field: field)
            case "updated_at": updatedAt = try FilterCondition.timeBounds(condition, field: field)
            default: throw .input("filtering users on \"\(field)\" is not supported", field: "filter_conditions.\(field)")
            }
        }
    }

    /// The text of `{"$autocomplete": "text"}`, or nil for another condition.
    private static func autocomplete(_ condition: JSONValue, field: String) throws(FeedsError) -> String? {
        guard case .object(let object) = condition, let operand = object["$autocomplete"] else { return nil }
        guard object.count == 1, case .string(let text) = operand, !text.isEmpty, text.utf8.count <= 255 else {
            throw .input("$autocomplete on \(field) takes one non-empty string", field: "filter_conditions.\(field)")
        }
        return text
    }
}
