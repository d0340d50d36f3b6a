import Foundation

/// A story timeline's groups (Stream's `stories` group: one per author), made when the feed is
/// read from its newest live activities. Stories expire within days, so a timeline holds few and
/// the format applied at read time groups them as Stream's write-time grouping would (a changed
/// format regroups them at once, where Stream's applies to new activities only).
public enum ReadTimeAggregation {
    /// The newest activities of the feed that are grouped: a page never reads more.
    public static let window = 500
    /// The activities a group shows, its newest; `activity_count` counts them all.
    public static let shownPerGroup = 25
    static let cursorKind = "agg"

    /// The groups of `activities` (newest first, as a feed reads them), newest group first; each
    /// group's activities oldest first, as a story viewer plays them. `watched` marks them when the
    /// group tracks watching; `skipWatched` leaves the watched ones out.
    public static func groups(
        _ activities: [Activity], format: AggregationFormat, watched: Set<String>?, skipWatched: Bool
    ) -> [AggregatedGroup] {
        var members: [String: [Activity]] = [:]
        var order: [String] = []
        for var activity in activities {
            activity.isWatched = watched.map { $0.contains(activity.id) }
            if skipWatched, activity.isWatched == true { continue }
            let key = format.render(type: activity.type, targetID: activity.id, userID: activity.user.id, time: activity.createdAt)
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(activity)
        }
        return order.compactMap { key in
            guard let newestFirst = members[key], let newest = newestFirst.first, let oldest = newestFirst.last else { return nil }
            return AggregatedGroup(
                group: key, activities: newestFirst.prefix(shownPerGroup).reversed(), activityCount: newestFirst.count,
                userCount: Set(newestFirst.map(\.user.id)).count, createdAt: oldest.createdAt, updatedAt: newest.createdAt,
                isRead: false, isSeen: false, isWatched: watched == nil ? nil : newestFirst.allSatisfy { $0.isWatched == true })
        }
        .sorted { ($0.updatedAt, $1.group) > ($1.updatedAt, $0.group) }
    }

    /// The page of `groups` after the `next` cursor: `limit` groups and the cursor past them.
    public static func page(_ groups: [AggregatedGroup], limit: Int, next: String?) throws(FeedsError) -> (
        groups: [AggregatedGroup], next: String?
    ) {
        var rest = groups[...]
        if let next {
            let after = try KeysetCursor(token: next, kind: cursorKind, keyCount: 1, ascending: false, field: "next")
            rest = rest.drop { group in
                let micros = group.updatedAt.microsecondsSince1970
                return micros > after.micros || (micros == after.micros && group.group <= after.keys[0])
            }
        }
        let shown = Array(rest.prefix(limit))
        let more = rest.count > limit
        let cursor = shown.last.map {
            KeysetCursor(ascending: false, micros: $0.updatedAt.microsecondsSince1970, keys: [$0.group]).token(kind: cursorKind)
        }
        return (shown, more ? cursor : nil)
    }
}
