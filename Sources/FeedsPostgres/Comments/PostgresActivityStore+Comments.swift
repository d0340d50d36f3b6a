import FeedsCore
import Foundation
import Logging
import PostgresNIO

extension PostgresActivityStore {
    /// One statement writes the comment or nothing (`InsertComment`), and returns what the comment
    /// needs beyond what was sent: one round trip, no transaction. A deadlock (with a delete of its
    /// thread) wrote nothing, so it runs again (`ConflictRetry`).
    public func addComment(_ draft: CommentDraft, by principal: Principal, logger: Logger) async throws -> Comment {
        try await ConflictRetry.run(logger: logger) {
            try await client.withConnection { try await Self.insert(draft, on: $0, by: principal, logger: logger) }
        }
    }

    /// All of `drafts` in one transaction, or none: the first refusal names its item.
    public func addComments(_ drafts: [CommentDraft], by principal: Principal, logger: Logger) async throws -> [Comment] {
        try await client.transaction(logger: logger) { connection in
            var made: [Comment] = []
            for (index, draft) in drafts.enumerated() {
                do {
                    made.append(try await Self.insert(draft, on: connection, by: principal, logger: logger))
                } catch let error as FeedsError {
                    throw error.inBatch("comments", index)
                }
            }
            return made
        }
    }

    /// One comment, on `connection`: its parent found (a reply's activity is its parent's), then
    /// `InsertComment`, which checks the activity and the links in the statement that writes.
    private static func insert(_ draft: CommentDraft, on connection: PostgresConnection, by principal: Principal, logger: Logger)
        async throws -> Comment
    {
        do {
            var activityID = draft.activityID
            var depth = 0
            if let parentID = draft.parentID {
                let parent = try await parent(parentID, on: connection, logger: logger)
                if let activityID, activityID != parent.activityID {
                    throw FeedsError.input("comment \(parentID) is on another activity", field: "parent_id")
                }
                activityID = parent.activityID
                depth = parent.depth + 1
                guard depth <= CommentDraft.maxDepth else {
                    throw FeedsError.input("replies nest at most \(CommentDraft.maxDepth) deep", field: "parent_id")
                }
            }
            guard let activityID else { throw FeedsError.input("name the activity", field: "object_id") }
            let insert = InsertComment(draft, activityID: activityID, depth: depth, reader: principal.userID)
            var stored: InsertComment.Stored?
            for try await outcome in try await connection.execute(insert, logger: logger) {
                guard outcome.made else {
                    // Hidden from this reader (404), or read but not theirs to comment on (403).
                    if outcome.restriction == nil, let user = principal.userID {
                        try await engageable(activityID, user: user, on: connection, logger: logger)
                    }
                    throw refusal(outcome, activityID: activityID, linked: insert.linked)
                }
                stored = outcome.stored
            }
            // A new comment is what was sent, with no replies or reactions yet.
            if let stored, let user = stored.user {
                return Comment(
                    id: draft.id, activityID: activityID, parentID: draft.parentID, depth: depth, user: user,
                    text: draft.text,
                    custom: draft.custom, mentionedUserIDs: draft.mentionedUserIDs, attachments: draft.attachments,
                    replyCount: 0, createdAt: stored.created, updatedAt: stored.updated, editedAt: nil, deletedAt: nil)
            }
            guard let comment = try await comment(draft.id, ownFieldsOf: draft.userID, on: connection, logger: logger) else {
                throw FeedsError(.internal, "comment \(draft.id) vanished as it was made")
            }
            return comment
        } catch let error as PSQLError where error.isUniqueViolation(of: "comments_pkey") {
            throw FeedsError.conflict("a comment with id \(draft.id) exists already", field: "id")
        } catch let error as PSQLError where error.isForeignKeyViolation(of: "comments_parent_id_fkey") {
            // The parent was hard-deleted between its read and the insert.
            throw FeedsError.notFound("comment \(draft.parentID ?? "") does not exist")
        }
    }

    /// Why `InsertComment` wrote nothing: the activity is missing or hidden (404), takes no
    /// comments from this user (403), or a linked object is gone.
    private static func refusal(_ outcome: InsertComment.Row, activityID: String, linked: [String]) -> FeedsError {
        guard let restriction = outcome.restriction else { return .notFound("activity \(activityID) does not exist") }
        if outcome.allowed == false {
            return restriction == "nobody"
                ? .notAllowed("activity \(activityID) takes no comments")
                : .notAllowed("activity \(activityID) takes comments from people its owner follows")
        }
        let missing = linked.first { !outcome.attachable.contains($0) } ?? ""
        return .input("attachment object \(missing) does not exist or was deleted", field: "attachments")
    }

    public func updateComment(
        id: String, change: CommentChange, userID: String?, by principal: Principal, logger: Logger
    ) async throws -> Comment {
        try await client.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: CommentRow.columns(own: nil)) \(unescaped: CommentRow.from)
                WHERE c.id = \(id) AND c.deleted_at IS NULL FOR NO KEY UPDATE OF c
                """, logger: logger)
            guard let current = try await CommentRow.comments(rows).first?.comment else {
                throw FeedsError.notFound("comment \(id) does not exist")
            }
            guard principal.mayModify(ownedBy: current.user.id) else {
                throw FeedsError.notAllowed("only the author or the server may edit comment \(id)")
            }
            try await connection.query(
                """
                UPDATE comments SET text = COALESCE(\(change.text), text),
                    custom = COALESCE(\(change.custom(from: current.custom).map { JSONText.encode($0) })::jsonb, custom),
                    mentioned_user_ids = COALESCE(\(change.mentionedUserIDs), mentioned_user_ids),
                    updated_at = now(), edited_at = now()
                WHERE id = \(id)
                """, logger: logger)
            if let attachments = change.attachments, attachments != current.attachments {
                let held = current.attachments.compactMap(\.objectKey?.rawValue)
                try await Self.lockObjects(held, on: connection, logger: logger)
                try await connection.query("DELETE FROM comment_attachments WHERE comment_id = \(id)", logger: logger)
                try await Self.insertAttachments(attachments, commentID: id, on: connection, logger: logger)
                try await Self.release(held, on: connection, logger: logger)
            }
            guard
                let comment = try await Self.comment(id, ownFieldsOf: userID ?? principal.userID, on: connection, logger: logger)
            else {
                throw FeedsError.notFound("comment \(id) does not exist")
            }
            return comment
        }
    }

    public func deleteComment(id: String, hard: Bool, by principal: Principal, logger: Logger) async throws
        -> (comment: Comment, activity: Activity)
    {
        let comment: Comment = try await client.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                SELECT a.user_id, \(unescaped: CommentRow.columns(own: nil)) \(unescaped: CommentRow.from)
                JOIN activities a ON a.id = c.activity_id
                WHERE c.id = \(id) AND (c.deleted_at IS NULL OR \(hard)) FOR \(unescaped: hard ? "UPDATE" : "NO KEY UPDATE") OF c
                """, logger: logger)
            var found: (comment: Comment, activityOwner: String)?
            for try await row in rows {
                var columns = RowReader(row)
                let owner: String = try columns.next()
                found = (try CommentRow.decode(&columns).comment, owner)
            }
            guard let (comment, owner) = found else { throw FeedsError.notFound("comment \(id) does not exist") }
            guard principal.mayModify(ownedBy: comment.user.id) || principal.mayModify(ownedBy: owner) else {
                throw FeedsError.notAllowed("only the author, the activity's owner or the server may delete comment \(id)")
            }
            try await Self.removeComments([id], hard: hard, on: connection, logger: logger)
            return comment
        }
        return (
            comment,
            try await activity(comment.activityID, principal: .server, ownFieldsOf: principal.userID ?? "", logger: logger)
        )
    }

    /// Deletes comments whose rows the caller locked: soft (kept, their attachments gone) or hard
    /// (gone, with the replies under them); either way the files no attachment holds any more are
    /// released, and the count triggers count them out.
    static func removeComments(_ ids: [String], hard: Bool, on connection: PostgresConnection, logger: Logger) async throws {
        guard !ids.isEmpty else { return }
        let holders: PostgresQuery =
            hard
            ? """
            WITH RECURSIVE tree AS (
                SELECT id FROM comments WHERE id = ANY(\(ids)) UNION SELECT c.id FROM comments c JOIN tree ON c.parent_id = tree.id
            )
            SELECT DISTINCT object_key FROM comment_attachments WHERE comment_id IN (SELECT id FROM tree) AND object_key IS NOT NULL
            """
            : "SELECT DISTINCT object_key FROM comment_attachments WHERE comment_id = ANY(\(ids)) AND object_key IS NOT NULL"
        var held: [String] = []
        for try await key in try await connection.query(holders, logger: logger).decode(String.self) { held.append(key) }
        try await lockObjects(held.sorted(), on: connection, logger: logger)
        if hard {
            try await connection.query("DELETE FROM comments WHERE id = ANY(\(ids))", logger: logger)
        } else {
            try await connection.query(
                "UPDATE comments SET deleted_at = now(), updated_at = now() WHERE id = ANY(\(ids))", logger: logger)
            try await connection.query("DELETE FROM comment_attachments WHERE comment_id = ANY(\(ids))", logger: logger)
        }
        try await release(held, on: connection, logger: logger)
    }

    public func restoreComment(id: String, by principal: Principal, logger: Logger) async throws
        -> (comment: Comment, activity: Activity)
    {
        let comment: Comment = try await client.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: CommentRow.columns(own: nil)) \(unescaped: CommentRow.from)
                WHERE c.id = \(id) FOR NO KEY UPDATE OF c
                """, logger: logger)
            guard let found = try await CommentRow.comments(rows).first?.comment else {
                throw FeedsError.notFound("comment \(id) does not exist")
            }
            guard principal.mayModify(ownedBy: found.user.id) else {
                throw FeedsError.notAllowed("only the author or the server may restore comment \(id)")
            }
            let state = try await connection.query(
                """
                SELECT c.deleted_at IS NOT NULL,
                    EXISTS (SELECT 1 FROM activities a WHERE a.id = c.activity_id AND \(unescaped: ActivityLive.predicate("a"))),
                    c.parent_id IS NULL OR EXISTS (SELECT 1 FROM comments p WHERE p.id = c.parent_id AND p.deleted_at IS NULL)
                FROM comments c WHERE c.id = \(id)
                """, logger: logger)
            for try await (deleted, activityLive, parentLive) in state.decode((Bool, Bool, Bool).self) {
                guard deleted else { throw FeedsError.input("comment \(id) is not deleted", field: "id") }
                guard activityLive else { throw FeedsError.notFound("the activity of comment \(id) is gone") }
                guard parentLive else { throw FeedsError.input("the comment that comment \(id) replies to is deleted", field: "id") }
            }
            try await connection.query(
                "UPDATE comments SET deleted_at = NULL, updated_at = now() WHERE id = \(id)", logger: logger)
            guard let restored = try await Self.comment(id, ownFieldsOf: principal.userID, on: connection, logger: logger) else {
                throw FeedsError(.internal, "comment \(id) vanished as it was restored")
            }
            return restored
        }
        return (
            comment,
            try await activity(comment.activityID, principal: .server, ownFieldsOf: principal.userID ?? "", logger: logger)
        )
    }

    /// The live comment a reply names: its activity and depth.
    private static func parent(_ id: String, on connection: PostgresConnection, logger: Logger) async throws
        -> (activityID: String, depth: Int)
    {
        let rows = try await connection.query(
            "SELECT activity_id, depth FROM comments WHERE id = \(id) AND deleted_at IS NULL", logger: logger)
        for try await (activity, depth) in rows.decode((String, Int32).self) { return (activity, Int(depth)) }
        throw FeedsError.notFound("comment \(id) does not exist")
    }

    /// A comment as it is, with `user`'s own reactions.
    static func comment(_ id: String, ownFieldsOf user: String?, on connection: PostgresConnection, logger: Logger)
        async throws -> Comment?
    {
        var bind = SQLBinds()
        let own = try user.map { try bind($0) }
        let sql = "SELECT \(CommentRow.columns(own: own)) \(CommentRow.from) WHERE c.id = \(try bind(id))"
        return try await CommentRow.comments(try await connection.query(bind.query(sql), logger: logger)).first?.comment
    }

    private static func insertAttachments(
        _ attachments: [StoredAttachment], commentID: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        guard !attachments.isEmpty else { return }
        let columns = AttachmentColumns(attachments)
        try await connection.query(
            """
            INSERT INTO comment_attachments (comment_id, position, type, payload, object_key)
            SELECT \(commentID), x.n - 1, NULLIF(x.t, ''), x.p::jsonb, NULLIF(x.k, '')
            FROM unnest(\(columns.types)::text[], \(columns.payloads)::text[], \(columns.keys)::text[]) WITH ORDINALITY AS x(t, p, k, n)
            """, logger: logger)
        try await attach(columns.linked, on: connection, logger: logger)
    }
}
