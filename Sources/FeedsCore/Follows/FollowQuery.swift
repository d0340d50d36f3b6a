import Foundation

/// What QueryFollows asks for (and the followers and following lists of a feed): filters, newest
/// or oldest first, a page size and a cursor.
public struct FollowQuery: Sendable, Hashable {
    public var sources: [String]?
    public var targets: [String]?
    public var statuses: [Follow.Status]?
    public var createdAt: [TimeBound] = []
    public var ascending = false
    public var limit: Int
    /// Where the previous page ended (`next`).
    public var cursor: FollowCursor?

    public init(limit: Int = KeysetPage.defaultLimit) {
        self.limit = limit
    }

    /// Reads a request's `filter`, `sort`, `limit` and `next`.
    public init(
        filter: JSONObject?, sort: [(field: String?, direction: Int?)], limit: Int?, next: String?, prev: String?,
        field: String = ""
    ) throws(FeedsError) {
        // Follow cursors are their own (they name two feeds); the rest reads as every keyset page does.
        let page = try KeysetPage(sort: sort, limit: limit, next: next, prev: prev, kind: nil, what: "follows", field: field)
        self.init(limit: page.limit)
        ascending = page.ascending
        if let next, !next.isEmpty { cursor = try FollowCursor(token: next, ascending: ascending, field: field + "next") }
        for (name, condition) in (filter ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch name {
            case "source_feed", "source_fid":
                sources = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "target_feed", "target_fid":
                targets = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "status":
                statuses = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"]).map {
                    value throws(FeedsError) in
                    guard let status = Follow.Status(rawValue: value) else {
                        throw .input("status is accepted, pending or rejected", field: "filter.status")
                    }
                    return status
                }
            case "created_at": createdAt = try FilterCondition.timeBounds(condition, field: name)
            default:
                throw .input(
                    "filtering follows on \"\(name)\" is not supported (source_feed, target_feed, status, created_at)",
                    field: "filter.\(name)")
            }
        }
    }
}

/// A position in a follows order, opaque to clients: keyset pagination on the creation time and
/// the pair, so pages neither repeat nor skip as follows are made.
public struct FollowCursor: Sendable, Hashable {
    public var ascending: Bool
    /// Microseconds since 1970 of the last follow's `created_at`.
    public var micros: Int64
    public var source: String
    public var target: String

    public init(ascending: Bool, micros: Int64, source: String, target: String) {
        self.ascending = ascending
        self.micros = micros
        self.source = source
        self.target = target
    }

    public var token: String {
        Base64URL.encode("w|\(ascending ? 1 : -1)|\(micros)|\(source)|\(target)".utf8)
    }

    init(token: String, ascending: Bool, field: String) throws(FeedsError) {
        guard let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8) else {
            throw .input("\(field) is not a valid cursor", field: field)
        }
        let parts = text.split(separator: "|", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "w", let direction = Int(parts[1]), let micros = Int64(parts[2]),
            WireTime.microseconds.contains(micros), (try? FeedID(String(parts[3]))) != nil,
            (try? FeedID(String(parts[4]))) != nil
        else { throw .input("\(field) is not a valid cursor", field: field) }
        guard (direction == 1) == ascending else { throw .input("\(field) was made for another sort", field: field) }
        self.init(ascending: ascending, micros: micros, source: String(parts[3]), target: String(parts[4]))
    }
}

/// One page of follows, with the cursor to the next.
public struct FollowPage: Sendable, Hashable {
    public var follows: [Follow]
    public var next: FollowCursor?

    public init(follows: [Follow], next: FollowCursor?) {
        self.follows = follows
        self.next = next
    }
}

/// A feed GetFollowSuggestions offers: `mutuals` of the owners of feeds the user follows follow
/// it (0: offered as popular).
public struct FollowSuggestion: Sendable, Hashable {
    public var feed: Feed
    public var mutuals: Int

    public init(feed: Feed, mutuals: Int) { (self.feed, self.mutuals) = (feed, mutuals) }

    /// Why it is offered, as the reply's `reason` says.
    public var reason: String { mutuals > 0 ? "friends_of_friends" : "popular" }
}
