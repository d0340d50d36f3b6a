import Foundation

/// A bound on a time column, from a filter's `$gt`, `$gte`, `$lt` or `$lte`.
public enum TimeBound: Sendable, Hashable {
    case greaterThan(Date), greaterOrEqual(Date), lessThan(Date), lessOrEqual(Date)

    /// The SQL comparison operator.
    public var comparison: String {
        switch self {
        case .greaterThan: ">"
        case .greaterOrEqual: ">="
        case .lessThan: "<"
        case .lessOrEqual: "<="
        }
    }

    public var date: Date {
        switch self {
        case .greaterThan(let date), .greaterOrEqual(let date), .lessThan(let date), .lessOrEqual(let date): date
        }
    }
}

/// One field's condition in a Stream filter (`{"field": {"$op": operand}}`, or a bare value for
/// `$eq`), read for the operators that field supports. The query filters (`ActivityFilter`,
/// `FeedFilter`, `UserFilter`) share these, so a bad condition reads the same everywhere.
enum FilterCondition {
    /// The most values an `$in` takes: enough for any page of ids, and bounded.
    static let maxValues = 1000

    /// The strings of `$eq` (or a bare string) and `$in`.
    static func strings(_ condition: JSONValue, field: String, operators: Set<String>) throws(FeedsError) -> [String] {
        let path = "filter.\(field)"
        switch condition {
        case .string(let value) where operators.contains("$eq"):
            return [value]
        case .object(let object):
            guard object.count == 1, let (op, operand) = object.first, operators.contains(op) else {
                throw .input("\(field) supports \(operators.sorted().joined(separator: ", "))", field: path)
            }
            switch (op, operand) {
            case ("$eq", .string(let value)): return [value]
            case ("$in", .array(let values)):
                guard values.count <= maxValues else { throw .input("$in takes at most \(maxValues) values", field: path) }
                return try values.map { value throws(FeedsError) in
                    guard case .string(let string) = value else { throw .input("\(op) takes strings", field: path) }
                    return string
                }
            default:
                throw .input("\(op) on \(field) takes \(op == "$in" ? "an array of strings" : "a string")", field: path)
            }
        default:
            throw .input("\(field) takes an operator object such as {\"$in\": [...]}", field: path)
        }
    }

    /// The bounds of `$gt`, `$gte`, `$lt` and `$lte`, each a time in nanoseconds or RFC 3339.
    static func timeBounds(_ condition: JSONValue, field: String) throws(FeedsError) -> [TimeBound] {
        let path = "filter.\(field)"
        guard case .object(let object) = condition, !object.isEmpty else {
            throw .input("\(field) takes $gt, $gte, $lt or $lte", field: path)
        }
        return try object.sorted { $0.key < $1.key }.map { op, operand throws(FeedsError) in
            guard let date = WireTime.date(from: operand) else {
                throw .input("\(field) \(op) takes a time: nanoseconds since 1970 or RFC 3339", field: path)
            }
            switch op {
            case "$gt": return .greaterThan(date)
            case "$gte": return .greaterOrEqual(date)
            case "$lt": return .lessThan(date)
            case "$lte": return .lessOrEqual(date)
            default: throw .input("\(field) supports $gt, $gte, $lt, $lte", field: path)
            }
        }
    }
}
