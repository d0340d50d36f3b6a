import FeedsCore
import PostgresNIO

/// The SELECT for each shape of `ActivityQuery`, every one a walk of an index in page order that
/// stops at the page's end, whatever the table's size:
/// - one feed: the feed index `(feed, created_at, activity_id)` as a range;
/// - several feeds, users or types: the newest page of each (by the feed index,
///   `activities_user_idx` or `activities_type_idx`), merged; so 1,000 feeds cost 1,000 short
///   index walks, never every row of them; with a type and 100 feeds or more, the type's walk,
///   kept to the feeds (a rare type would have each feed read whole);
/// - otherwise (by id, or everything): the activities' own newest-first index.
/// In another sort (QueryActivities' `sort`): every activity the filters match, ordered in the
/// database (`sortedSQL`).
extension PostgresActivityStore {
    static func sql(for query: ActivityQuery) throws -> PostgresQuery {
        var bind = SQLBinds()
        // The reader's own reactions and bookmarks: bound first, so every shape numbers it $1.
        let own = try query.ownFieldsOf.map { try bind($0) }
        let viewer = try query.viewer.userID.map { try bind($0) }
        let shownTo = query.leavesOutBlocked ? viewer : nil
        let select = "SELECT \(ActivityRow.columns(own: own, viewer: viewer, shownTo: shownTo)) FROM "
        if query.sort != .newestFirst { return try sortedSQL(query, select: select, own: own, viewer: viewer, &bind) }
        let order = query.cursor?.direction == .newer ? "ASC" : "DESC"

        if let feeds = query.feeds, feeds.count == 1 {
            let feed = try bind(feeds[0])
            var sql = select + "activity_feeds f JOIN activities a ON a.id = f.activity_id JOIN users u ON u.id = a.user_id"
            sql += " WHERE f.feed = \(feed)"
            // A user reads a feed's rows only when they may read the feed: a private timeline's
            // rows are public posts of others, but which ones says whom its owner follows.
            if let viewer {
                sql += " AND EXISTS (SELECT 1 FROM feeds qf WHERE qf.fid = \(feed)"
                sql += " AND \(FeedReadable.predicate(feed: "qf", user: viewer)))"
            }
            sql += try conditions(query, viewer: viewer, hiddenBy: own, key: ("f.created_at", "f.activity_id"), &bind)
            sql += " ORDER BY f.created_at \(order), f.activity_id \(order) LIMIT \(try bind(query.limit + 1))"
            return bind.query(sql)
        }

        if query.ids == nil, let driver = try mergeDriver(query, viewer: viewer, &bind) {
            let limit = try bind(query.limit + 1)
            var sql = select + "(SELECT DISTINCT m.id, m.t FROM unnest(\(driver.values)::text[]) AS q(v) CROSS JOIN LATERAL ("
            sql += "SELECT a.id, a.created_at AS t FROM \(driver.from) WHERE \(driver.match)"
            sql += try conditions(query, viewer: viewer, hiddenBy: query.feeds == nil ? nil : own, key: driver.key, &bind)
            sql += " ORDER BY \(driver.key.time) \(order), \(driver.key.id) \(order) LIMIT \(limit)) m"
            sql += " ORDER BY m.t \(order), m.id \(order) LIMIT \(limit)) pick"
            sql += " JOIN activities a ON a.id = pick.id JOIN users u ON u.id = a.user_id"
            sql += " ORDER BY a.created_at \(order), a.id \(order)"
            return bind.query(sql)
        }

        var sql = select + "activities a JOIN users u ON u.id = a.user_id WHERE true"
        sql += try conditions(query, viewer: viewer, key: ("a.created_at", "a.id"), &bind)
        sql += " ORDER BY a.created_at \(order), a.id \(order) LIMIT \(try bind(query.limit + 1))"
        return bind.query(sql)
    }

    /// A read in another order than newest first: the activities the filters match (of the feeds
    /// the reader may read, with `feeds`), sorted on (the field, `created_at`, id) all one way, and
    /// the cursor a place in that order. No index holds these orders (every reaction would
    /// update one), so the read sorts what the filters match: filters keep it small.
    private static func sortedSQL(
        _ query: ActivityQuery, select: String, own: String?, viewer: String?, _ bind: inout SQLBinds
    ) throws -> PostgresQuery {
        let order = query.sort.ascending ? "ASC" : "DESC"
        let value = ActivitySortSQL.value(query.sort.field)
        var sql = select + "activities a JOIN users u ON u.id = a.user_id WHERE true"
        if let feeds = query.feeds {
            sql += " AND a.id IN (SELECT f.activity_id FROM activity_feeds f"
            if let viewer {
                sql += " JOIN feeds qf ON qf.fid = f.feed AND \(FeedReadable.predicate(feed: "qf", user: viewer))"
            }
            sql += " WHERE f.feed = ANY(\(try bind(feeds))))"
        }
        var filters = query
        (filters.feeds, filters.cursor) = (nil, nil)
        sql += try conditions(
            filters, viewer: viewer, hiddenBy: query.feeds == nil ? nil : own, key: ("a.created_at", "a.id"), &bind)
        let keys = (value.map { [$0] } ?? []) + ["a.created_at", "a.id"]
        if let cursor = query.cursor {
            // A count, exactly: a forged cursor's value must not trap the conversion.
            guard let count = Int64(exactly: cursor.score ?? 0) else {
                throw FeedsError.input("next is not a valid cursor", field: "next")
            }
            var edge = value == nil ? [] : [try bind(count)]
            edge += [try bind.time(microseconds: cursor.micros), try bind(cursor.id)]
            sql += " AND (\(keys.joined(separator: ", "))) \(query.sort.ascending ? ">" : "<") (\(edge.joined(separator: ", ")))"
        }
        sql += " ORDER BY \(keys.map { "\($0) \(order)" }.joined(separator: ", ")) LIMIT \(try bind(query.limit + 1))"
        return bind.query(sql)
    }

    /// From this many feeds with a type, a read walks the type (see `mergeDriver`).
    static let manyFeeds = 100

    /// What a merged read walks once per value (`q.v`): feeds, else users, else types.
    private static func mergeDriver(_ query: ActivityQuery, viewer: String?, _ bind: inout SQLBinds) throws
        -> (values: String, from: String, match: String, key: (time: String, id: String))?
    {
        if let feeds = query.feeds, let types = query.types, query.userIDs == nil, feeds.count >= manyFeeds {
            // Many feeds and a type: each type's walk, kept to the feeds. A walk of each feed would
            // read every row of a feed where the type is rare (a million, for 1,000 feeds).
            var member = "SELECT 1 FROM activity_feeds f"
            if let viewer {
                member += " JOIN feeds qf ON qf.fid = f.feed AND \(FeedReadable.predicate(feed: "qf", user: viewer))"
            }
            member += " WHERE f.activity_id = a.id AND f.feed = ANY(\(try bind(feeds)))"
            return (try bind(types), "activities a", "a.type = q.v AND EXISTS (\(member))", ("a.created_at", "a.id"))
        }
        if let feeds = query.feeds {
            var from = "activity_feeds f JOIN activities a ON a.id = f.activity_id"
            if let viewer {
                from += " JOIN feeds qf ON qf.fid = f.feed AND \(FeedReadable.predicate(feed: "qf", user: viewer))"
            }
            return (try bind(feeds), from, "f.feed = q.v", ("f.created_at", "f.activity_id"))
        }
        if let users = query.userIDs, users.count > 1 {
            return (try bind(users), "activities a", "a.user_id = q.v", ("a.created_at", "a.id"))
        }
        if query.userIDs == nil, let types = query.types {
            return (try bind(types), "activities a", "a.type = q.v", ("a.created_at", "a.id"))
        }
        return nil
    }

    /// The conditions every shape puts on the activity `a`: not deleted, listed to the viewer,
    /// on a feed's page not hidden by its reader (`hiddenBy`), the query's filters, and the
    /// cursor on the walk's `key`.
    static func conditions(
        _ query: ActivityQuery, viewer: String?, hiddenBy reader: String? = nil, key: (time: String, id: String),
        _ bind: inout SQLBinds
    ) throws -> String {
        var sql = " AND \(ActivityLive.predicate("a"))"
        if let reader { sql += " AND NOT \(ActivityHidden.by(activity: "a", user: reader))" }
        if let ids = query.ids {
            // One id is `=`: a prepared read of one activity then has a generic plan of one row,
            // which PostgreSQL keeps. With `ANY` of an array of unknown length the generic plan
            // looked dearer, so a write's read-back (UserActivityWritten) was planned afresh on
            // every execution: 2 ms of PostgreSQL's CPU a reaction.
            sql += ids.count == 1 ? " AND a.id = \(try bind(ids[0]))" : " AND a.id = ANY(\(try bind(ids)))"
        }
        if let viewer { sql += " AND \(ActivityReadable.listed(activity: "a", user: viewer))" }
        if let users = query.userIDs {
            // One user is `=`, so that the user index gives the order; `ANY` of one would not.
            sql += users.count == 1 ? " AND a.user_id = \(try bind(users[0]))" : " AND a.user_id = ANY(\(try bind(users)))"
        }
        if let types = query.types { sql += " AND a.type = ANY(\(try bind(types)))" }
        for bound in query.createdAt {
            sql += " AND a.created_at \(bound.comparison) \(try bind.time(bound.date))"
        }
        if let cursor = query.cursor {
            // Exact microseconds: integer arithmetic, so a cursor never lands beside its activity.
            let time = try bind.time(microseconds: cursor.micros)
            let comparison = cursor.direction == .older ? "<" : ">"
            sql += " AND (\(key.time), \(key.id)) \(comparison) (\(time), \(try bind(cursor.id)))"
        }
        return sql
    }
}
