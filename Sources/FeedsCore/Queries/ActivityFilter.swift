import Foundation

/// Parses QueryActivities' `filter` object into an `ActivityQuery`'s filters.
///
/// Supported: `feeds` `$in` (or `$eq`, or a bare value); `id`, `user_id` and `type` `$eq`/`$in` (a bare value means `$eq`);
/// `created_at` `$gt`/`$gte`/`$lt`/`$lte` with times in nanoseconds or RFC 3339. Anything else is a 400 naming it.
public enum ActivityFilter {
    public static func apply(_ filter: JSONObject, to query: inout ActivityQuery) throws(FeedsError) {
        for (field, condition) in filter.sorted(by: { $0.key < $1.key }) {
            switch field {
            case "feeds":
                query.feeds = try FilterCondition.strings(condition, field: field, operators: ["$in", "$eq"])
            case "id":
                let ids = try FilterCondition.strings(condition, field: field, operators: ["$eq", "$in"])
                guard ids.count <= ActivityQuery.maxLimit else {
                    throw .input("filter.id names at most \(ActivityQuery.maxLimit) activities", field: "filter.id")
                }
                query.ids = ids
            case "user_id":
                query.userIDs = try FilterCondition.strings(condition, field: field, operators: ["$eq", "$in"])
            case "type", "activity_type":
                query.types = try FilterCondition.strings(condition, field: field, operators: ["$eq", "$in"])
            case "created_at":
                query.createdAt = try FilterCondition.timeBounds(condition, field: field)
            default:
                throw .input("filtering on \"\(field)\" is not supported", field: "filter.\(field)")
            }
        }
    }
}
