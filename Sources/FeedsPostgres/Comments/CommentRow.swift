import FeedsCore
import Foundation
import PostgresNIO

/// The columns every comment read selects (`c` the comment, `u` its author), and the comment they
/// make. Attachments come as an activity's do; the last column is the exact microsecond time.
enum CommentRow {
    /// `own` is the SQL of the reader's user id (a bind), or nil when nobody's own reactions are
    /// asked for; `shownTo` the user whose blocks the counts leave out (reads), or nil for the whole.
    static func columns(own: String?, shownTo: String? = nil) -> String {
        """
        c.id, c.activity_id, c.parent_id, c.depth, c.text, c.custom::text, c.mentioned_user_ids, c.reply_count,
        c.created_at, c.updated_at, c.edited_at, c.deleted_at,
        COALESCE((
            SELECT json_agg(json_build_object('p', t.payload, 'k', t.object_key) ORDER BY t.position)
            FROM comment_attachments t LEFT JOIN cdn_objects o ON o.key = t.object_key
            WHERE t.comment_id = c.id AND (t.object_key IS NULL OR o.state NOT IN ('deleting', 'deleted'))
        ), '[]')::text,
        \(UserRow.columns(alias: "u")),
        c.reaction_count, c.bookmark_count, c.reaction_groups::text,
        \(EngagementColumns.latestReactions(of: .comments, shownTo: shownTo)),
        \(EngagementColumns.ownReactions(of: .comments, own: own)),
        \(EngagementColumns.hiddenShare(of: .comments, shownTo: shownTo)),
        (extract(epoch FROM c.created_at) * 1000000)::int8
        """
    }

    static let from = "FROM comments c JOIN users u ON u.id = c.user_id"

    struct Decoded {
        let comment: Comment
        let micros: Int64
    }

    static func decode(_ row: PostgresRow) throws -> Decoded {
        var columns = RowReader(row)
        return try decode(&columns)
    }

    /// The comment in the next columns of a row, in the order of `columns`.
    static func decode(_ columns: inout RowReader) throws -> Decoded {
        let id: String = try columns.next(), activityID: String = try columns.next(), parentID: String? = try columns.next()
        let depth: Int32 = try columns.next(), text: String? = try columns.next()
        let custom = try JSONText.object(try columns.next())
        let mentions: [String] = try columns.next(), replies: Int32 = try columns.next()
        let created: Date = try columns.next(), updated: Date = try columns.next()
        let edited: Date? = try columns.next(), deleted: Date? = try columns.next()
        let attachments = try ActivityRow.attachments(try columns.next())
        let user = try UserRow.user(&columns)
        var comment = Comment(
            id: id, activityID: activityID, parentID: parentID, depth: Int(depth), user: user, text: text, custom: custom,
            mentionedUserIDs: mentions, attachments: attachments, replyCount: Int(replies), createdAt: created,
            updatedAt: updated, editedAt: edited, deletedAt: deleted)
        let reactionCount: Int32 = try columns.next()
        comment.reactionCount = Int(reactionCount)
        let bookmarkCount: Int32 = try columns.next()
        comment.bookmarkCount = Int(bookmarkCount)
        comment.reactionGroups = try EngagementColumns.reactionGroups(try columns.next())
        comment.latestReactions = try EngagementColumns.reactions(try columns.next(), activityID: activityID, commentID: id)
        comment.ownReactions = try EngagementColumns.reactions(try columns.next(), activityID: activityID, commentID: id)
        let hidden = try EngagementColumns.HiddenShare(try columns.next())
        comment.reactionCount -= hidden.leaveOut(of: &comment.reactionGroups)
        comment.replyCount = max(0, comment.replyCount - hidden.comments)
        return Decoded(comment: comment, micros: try columns.next())
    }

    static func comments(_ rows: PostgresRowSequence) async throws -> [Decoded] {
        var decoded: [Decoded] = []
        for try await row in rows { decoded.append(try decode(row)) }
        return decoded
    }
}
