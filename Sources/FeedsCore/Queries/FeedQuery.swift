import Foundation

/// What QueryFeeds asks for: filters, an order, a page size and a cursor.
public struct FeedQuery: Sendable, Hashable {
    /// The columns feeds sort on, each a time, with the feed id breaking ties.
    public enum SortField: String, Sendable, Hashable, CaseIterable {
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public var fids: [String]?
    public var groupIDs: [String]?
    public var ids: [String]?
    public var createdByIDs: [String]?
    public var createdAt: [TimeBound] = []
    /// Set for a user's query: only the feeds this user may read (`FeedVisibility`).
    public var readableBy: String?
    public var sort: SortField = .createdAt
    public var ascending = false
    public var limit: Int
    public var cursor: FeedCursor?

    public init(limit: Int = FeedQuery.defaultLimit) {
        self.limit = limit
    }

    public static let defaultLimit = 25
    public static let maxLimit = 100

    /// Reads a request's `filter`, `sort`, `limit`, `next` and `prev`.
    public init(
        filter: JSONObject?, sort: [(field: String?, direction: Int?)], limit: Int?, next: String?, prev: String?
    ) throws(FeedsError) {
        let limit = limit ?? Self.defaultLimit
        guard (0...Self.maxLimit).contains(limit) else {
            throw .input("limit must be between 0 and \(Self.maxLimit)", field: "limit")
        }
        self.init(limit: limit == 0 ? Self.defaultLimit : limit)
        guard sort.count <= 1 else { throw .input("feeds sort on one field", field: "sort") }
        if let order = sort.first {
            guard let field = SortField(rawValue: order.field ?? "created_at") else {
                throw .input("feeds sort on created_at or updated_at", field: "sort")
            }
            guard [nil, 1, -1].contains(order.direction) else { throw .input("direction is 1 or -1", field: "sort") }
            self.sort = field
            // Stream's SortParamRequest: direction 1 unless it says -1.
            self.ascending = order.direction != -1
        }
        if next?.isEmpty == false, prev?.isEmpty == false { throw .input("give next or prev, not both", field: "next") }
        if let next, !next.isEmpty { cursor = try FeedCursor(token: next, query: self, forward: true, field: "next") }
        if let prev, !prev.isEmpty { cursor = try FeedCursor(token: prev, query: self, forward: false, field: "prev") }
        for (field, condition) in (filter ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch field {
            case "feed": fids = try FilterCondition.strings(condition, field: field, operators: ["$eq", "$in"])
            case "group_id": groupIDs = try FilterCondition.strings(condition, field: field, operators: ["$eq", "$in"])
            case "id": ids = try FilterCondition.strings(condition, field: field, operators: ["$eq", "$in"])
            case "created_by_id":
                createdByIDs = try FilterCondition.strings(condition, field: field, operators: ["$eq", "$in"])
            case "created_at": createdAt = try FilterCondition.timeBounds(condition, field: field)
            default: throw .input("filtering feeds on \"\(field)\" is not supported", field: "filter.\(field)")
            }
        }
    }
}

/// A position in a QueryFeeds order, opaque to clients as `next` / `prev`: keyset pagination on
/// the sort time and the feed id, so pages neither repeat nor skip as feeds are created.
public struct FeedCursor: Sendable, Hashable {
    /// Onward in the query's order (`next`), or back (`prev`).
    public var forward: Bool
    public var sort: FeedQuery.SortField
    public var ascending: Bool
    /// Microseconds since 1970 of the edge feed's sort time.
    public var micros: Int64
    public var fid: String

    public init(forward: Bool, sort: FeedQuery.SortField, ascending: Bool, micros: Int64, fid: String) {
        self.forward = forward
        self.sort = sort
        self.ascending = ascending
        self.micros = micros
        self.fid = fid
    }

    public var token: String {
        Base64URL.encode("f|\(forward ? "n" : "p")|\(sort.rawValue)|\(ascending ? 1 : -1)|\(micros)|\(fid)".utf8)
    }

    /// Decodes a token, which must have been made for the same order the query asks for.
    init(token: String, query: FeedQuery, forward: Bool, field: String) throws(FeedsError) {
        guard let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8) else {
            throw .input("\(field) is not a valid cursor", field: field)
        }
        let parts = text.split(separator: "|", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "f", parts[1] == (forward ? "n" : "p"),
            let sort = FeedQuery.SortField(rawValue: String(parts[2])), let direction = Int(parts[3]),
            let micros = Int64(parts[4]), WireTime.microseconds.contains(micros), !parts[5].isEmpty
        else { throw .input("\(field) is not a valid cursor", field: field) }
        guard sort == query.sort, (direction == 1) == query.ascending else {
            throw .input("\(field) was made for another sort", field: field)
        }
        self.init(forward: forward, sort: sort, ascending: direction == 1, micros: micros, fid: String(parts[5]))
    }
}

/// One page of feeds in the query's order, with the cursors around it.
public struct FeedPage: Sendable, Hashable {
    public var feeds: [Feed]
    public var next: FeedCursor?
    public var prev: FeedCursor?

    public init(feeds: [Feed], next: FeedCursor?, prev: FeedCursor?) {
        self.feeds = feeds
        self.next = next
        self.prev = prev
    }
}
