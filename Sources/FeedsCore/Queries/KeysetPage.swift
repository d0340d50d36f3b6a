import Foundation

/// A position in a newest- or oldest-first order of rows, opaque to clients: the last row's
/// creation time and the keys that break its ties, so pages neither repeat nor skip as rows
/// come and go. `kind` tells the cursors of different queries apart.
public struct KeysetCursor: Sendable, Hashable {
    public var ascending: Bool
    /// Microseconds since 1970 of the last row's `created_at`.
    public var micros: Int64
    public var keys: [String]

    public init(ascending: Bool, micros: Int64, keys: [String]) {
        self.ascending = ascending
        self.micros = micros
        self.keys = keys
    }

    /// `kind|direction|micros|["key", …]`, base64url: the keys as JSON, so any text may be one.
    public func token(kind: String) -> String {
        let keys = JSONValue.array(keys.map { .string($0) }).text
        return Base64URL.encode("\(kind)|\(ascending ? 1 : -1)|\(micros)|\(keys)".utf8)
    }

    init(token: String, kind: String, keyCount: Int, ascending: Bool, field: String) throws(FeedsError) {
        guard token.utf8.count <= 4096, let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8)
        else { throw .input("\(field) is not a valid cursor", field: field) }
        let parts = text.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == kind, let direction = Int(parts[1]), let micros = Int64(parts[2]),
            WireTime.microseconds.contains(micros), case .array(let values)? = try? JSONValue(parsing: String(parts[3])),
            values.count == keyCount
        else { throw .input("\(field) is not a valid cursor", field: field) }
        var keys: [String] = []
        for value in values {
            guard case .string(let key) = value else { throw .input("\(field) is not a valid cursor", field: field) }
            keys.append(key)
        }
        guard (direction == 1) == ascending else { throw .input("\(field) was made for another sort", field: field) }
        self.init(ascending: ascending, micros: micros, keys: keys)
    }
}

/// The page a query request asks for: `limit` (0 or absent: 25, at most 100), `sort` on
/// `created_at` only, and a `next` cursor (pages go forward).
public struct KeysetPage: Sendable, Hashable {
    public var limit: Int
    public var ascending: Bool
    public var cursor: KeysetCursor?

    public static let defaultLimit = 25
    public static let maxLimit = 100

    public init(limit: Int = KeysetPage.defaultLimit, ascending: Bool = false, cursor: KeysetCursor? = nil) {
        self.limit = limit
        self.ascending = ascending
        self.cursor = cursor
    }

    /// `kind` and `keyCount` read the `next` cursor; nil leaves it to the caller's own cursor type.
    /// `field` prefixes the names in errors (a feed's `followers_pagination.`, say).
    public init(
        sort: [(field: String?, direction: Int?)], limit: Int?, next: String?, prev: String?, kind: String?, keyCount: Int = 0,
        what: String, field: String = ""
    ) throws(FeedsError) {
        let limit = limit ?? Self.defaultLimit
        guard (0...Self.maxLimit).contains(limit) else {
            throw .input("limit must be between 0 and \(Self.maxLimit)", field: field + "limit")
        }
        self.init(limit: limit == 0 ? Self.defaultLimit : limit)
        guard sort.count <= 1 else { throw .input("\(what) sort on created_at only", field: field + "sort") }
        if let order = sort.first {
            guard (order.field ?? "created_at") == "created_at" else {
                throw .input("\(what) sort on created_at only", field: field + "sort")
            }
            guard [nil, 1, -1].contains(order.direction) else { throw .input("direction is 1 or -1", field: field + "sort") }
            ascending = order.direction != -1
        }
        if let prev, !prev.isEmpty { throw .input("\(what) page forward only: use next", field: field + "prev") }
        if let kind, let next, !next.isEmpty {
            cursor = try KeysetCursor(token: next, kind: kind, keyCount: keyCount, ascending: ascending, field: field + "next")
        }
    }
}
