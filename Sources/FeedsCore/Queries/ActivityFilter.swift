import Foundation

/// Parses QueryActivities' `filter` object into an `ActivityQuery`'s filters.
///
/// Supported: `feeds` `$in` (or `$eq`, or a bare value); `user_id` and `type` `$eq`/`$in` (a bare value means `$eq`);
/// `created_at` `$gt`/`$gte`/`$lt`/`$lte` with RFC 3339 times. Anything else is a 400 naming it.
public enum ActivityFilter {
    public static func apply(_ filter: JSONObject, to query: inout ActivityQuery) throws(FeedsError) {
        for (field, condition) in filter.sorted(by: { $0.key < $1.key }) {
            switch field {
            case "feeds":
                query.feeds = try strings(condition, field: field, operators: ["$in", "$eq"])
            case "user_id":
                query.userIDs = try strings(condition, field: field, operators: ["$eq", "$in"])
            case "type", "activity_type":
                query.types = try strings(condition, field: field, operators: ["$eq", "$in"])
            case "created_at":
                query.createdAt = try timeBounds(condition)
            default:
                throw .input("filtering on \"\(field)\" is not supported", field: "filter.\(field)")
            }
        }
    }

    private static func strings(_ condition: JSONValue, field: String, operators: Set<String>) throws(FeedsError) -> [String] {
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

    private static func timeBounds(_ condition: JSONValue) throws(FeedsError) -> [ActivityQuery.TimeBound] {
        guard case .object(let object) = condition, !object.isEmpty else {
            throw .input("created_at takes $gt, $gte, $lt or $lte", field: "filter.created_at")
        }
        return try object.sorted { $0.key < $1.key }.map { op, operand throws(FeedsError) in
            guard case .string(let text) = operand, let date = RFC3339.date(from: text) else {
                throw .input("created_at \(op) takes an RFC 3339 time", field: "filter.created_at")
            }
            switch op {
            case "$gt": return .greaterThan(date)
            case "$gte": return .greaterOrEqual(date)
            case "$lt": return .lessThan(date)
            case "$lte": return .lessOrEqual(date)
            default: throw .input("created_at supports $gt, $gte, $lt, $lte", field: "filter.created_at")
            }
        }
    }
}
