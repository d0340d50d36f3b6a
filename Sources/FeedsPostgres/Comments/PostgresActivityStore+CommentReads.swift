import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// The reads of `CommentStore`: one comment, threads of an activity or a comment, and queries.
extension PostgresActivityStore {
    /// GetComment's read: counts as the reader may see them (`leavesOutBlocked`).
    public func comment(id: String, by principal: Principal, ownFieldsOf user: String?, logger: Logger) async throws -> Comment? {
        try await comments(ids: [id], by: principal, ownFieldsOf: user, leavesOutBlocked: true, logger: logger).first
    }

    /// The comments of `ids` that `principal` may read, in no particular order; with counts less
    /// the share of the users blocked either way with them when `leavesOutBlocked` (reads, never a
    /// write's read-back, which is also its event).
    func comments(ids: [String], by principal: Principal, ownFieldsOf user: String?, leavesOutBlocked: Bool, logger: Logger)
        async throws -> [Comment]
    {
        var bind = SQLBinds()
        let own = try user.map { try bind($0) }
        let me = try principal.userID.map { try bind($0) }
        var sql = """
            SELECT \(CommentRow.columns(own: own, shownTo: leavesOutBlocked ? me : nil)) \(CommentRow.from)
            JOIN activities a ON a.id = c.activity_id
            WHERE c.id = ANY(\(try bind(ids))) AND c.deleted_at IS NULL AND \(ActivityLive.predicate("a"))
            """
        if let me {
            sql += " AND \(ActivityReadable.predicate(activity: "a", user: me)) AND \(Unblocked.predicate("c.user_id", me))"
        }
        return try await CommentRow.comments(try await reads.query(bind.query(sql), logger: logger)).map(\.comment)
    }

    public func commentThreads(_ query: CommentThreadQuery, by principal: Principal, logger: Logger) async throws -> CommentPage {
        var bind = SQLBinds()
        let own = try query.ownFieldsOf.map { try bind($0) }
        let me = try principal.userID.map { try bind($0) }
        var sql = "SELECT \(CommentRow.columns(own: own, shownTo: me)) \(CommentRow.from) WHERE c.deleted_at IS NULL"
        switch query.root {
        case .activity(let id):
            try await readable(id, principal: principal, logger: logger)
            sql += " AND c.activity_id = \(try bind(id)) AND c.parent_id IS NULL"
        case .comment(let id):
            guard try await comment(id: id, by: principal, ownFieldsOf: nil, logger: logger) != nil else {
                throw FeedsError.notFound("comment \(id) does not exist")
            }
            sql += " AND c.parent_id = \(try bind(id))"
        }
        if let me { sql += " AND \(Unblocked.predicate("c.user_id", me))" }
        let (page, next) = try await self.page(
            sql, bind, sort: query.sort, limit: query.limit, cursor: query.cursor, logger: logger)
        let threads = try await replies(
            to: page, levels: query.depth, query: query, reader: principal.userID, logger: logger)
        return CommentPage(threads: threads, next: next)
    }

    public func queryComments(_ query: CommentQuery, by principal: Principal, logger: Logger) async throws
        -> (comments: [Comment], next: KeysetCursor?)
    {
        var bind = SQLBinds()
        let own = try query.ownFieldsOf.map { try bind($0) }
        let me = try principal.userID.map { try bind($0) }
        var sql = """
            SELECT \(CommentRow.columns(own: own, shownTo: me)) \(CommentRow.from) JOIN activities a ON a.id = c.activity_id
            WHERE c.deleted_at IS NULL AND \(ActivityLive.predicate("a"))
            """
        if let me {
            sql += " AND \(ActivityReadable.predicate(activity: "a", user: me)) AND \(Unblocked.predicate("c.user_id", me))"
        }
        for (column, values) in [
            ("c.id", query.ids), ("c.activity_id", query.activityIDs), ("c.parent_id", query.parentIDs),
            ("c.user_id", query.userIDs),
        ] {
            if let values { sql += " AND \(column) = ANY(\(try bind(values)))" }
        }
        for bound in query.createdAt { sql += " AND c.created_at \(bound.comparison) \(try bind.time(bound.date))" }
        let (comments, next) = try await page(
            sql, bind, sort: query.sort, limit: query.limit, cursor: query.cursor, logger: logger)
        return (comments, next)
    }

    /// The page of comments `sql` selects, in `sort`'s order after `cursor`, and the cursor to the next.
    private func page(
        _ sql: String, _ binds: SQLBinds, sort: CommentSort, limit: Int, cursor: KeysetCursor?, logger: Logger
    ) async throws -> ([Comment], KeysetCursor?) {
        var (sql, bind) = (sql, binds)
        if let cursor {
            let time = try bind.time(microseconds: cursor.micros), last = try bind(cursor.keys[2])
            switch sort {
            case .first: sql += " AND (c.created_at, c.id) > (\(time), \(last))"
            case .last: sql += " AND (c.created_at, c.id) < (\(time), \(last))"
            case .top:
                sql += " AND (c.reply_count, c.created_at, c.id) < (\(try bind(Int(cursor.keys[1]) ?? 0)), \(time), \(last))"
            }
        }
        sql += " ORDER BY \(Self.order(sort)) LIMIT \(try bind(limit + 1))"
        let rows = try await CommentRow.comments(try await reads.query(bind.query(sql), logger: logger))
        let (page, next) = keysetPage(rows, limit: limit) {
            KeysetCursor(
                ascending: sort == .first, micros: $0.micros, keys: [sort.rawValue, String($0.comment.replyCount), $0.comment.id])
        }
        return (page.map(\.comment), next)
    }

    /// `comments` with their replies, `levels` deep: one statement per level, for all the
    /// comments of that level at once.
    private func replies(
        to comments: [Comment], levels: Int, query: CommentThreadQuery, reader: String?, logger: Logger
    ) async throws
        -> [CommentThread]
    {
        let parents = comments.filter { $0.replyCount > 0 }.map(\.id)
        guard levels > 0, query.repliesLimit > 0, !parents.isEmpty else {
            return comments.map { CommentThread(comment: $0, depthTruncated: $0.replyCount > 0) }
        }
        var bind = SQLBinds()
        let own = try query.ownFieldsOf.map { try bind($0) }
        let me = try reader.map { try bind($0) }
        let unblocked = me.map { " AND \(Unblocked.predicate("c.user_id", $0))" } ?? ""
        let sql = """
            SELECT \(CommentRow.columns(own: own, shownTo: me)) FROM (
                SELECT c.*, row_number() OVER (PARTITION BY c.parent_id ORDER BY \(Self.order(query.sort))) AS n
                FROM comments c WHERE c.parent_id = ANY(\(try bind(parents))) AND c.deleted_at IS NULL\(unblocked)
            ) c JOIN users u ON u.id = c.user_id
            WHERE c.n <= \(try bind(query.repliesLimit + 1)) ORDER BY c.parent_id, c.n
            """
        let rows = try await reads.query(bind.query(sql), logger: logger)
        let found = try await CommentRow.comments(rows).map(\.comment)
        let nested = try await replies(
            to: found, levels: levels - 1, query: query, reader: reader, logger: logger)
        let byParent = Dictionary(grouping: nested, by: { $0.comment.parentID ?? "" })
        return comments.map { comment in
            let replies = byParent[comment.id] ?? []
            return CommentThread(
                comment: comment, replies: Array(replies.prefix(query.repliesLimit)),
                moreReplies: replies.count > query.repliesLimit)
        }
    }

    private static func order(_ sort: CommentSort) -> String {
        switch sort {
        case .first: "c.created_at ASC, c.id ASC"
        case .last: "c.created_at DESC, c.id DESC"
        case .top: "c.reply_count DESC, c.created_at DESC, c.id DESC"
        }
    }
}
