import FeedsCore
import Foundation
import PostgresNIO

/// The columns every activity read selects, and how a row becomes an `Activity`.
enum ActivityRow {
    /// `a` is the activity, `u` its user. Attachments of deleted objects are left out; each comes
    /// as `{"p": payload, "k": object key or null}`. Then its engagement (`EngagementColumns`,
    /// with the own fields of the user whose id is the SQL `own`). Then whether the row is only the
    /// preview of a tagged activity for the reader whose id is the SQL `viewer`
    /// (`TagReadable.preview`). Counts and newest reactions leave out the share of the users
    /// blocked either way with `shownTo`, when one is given. The last column is the exact
    /// microsecond timestamp for cursors.
    static func columns(own: String?, viewer: String? = nil, shownTo: String? = nil) -> String {
        """
        a.id, a.type, a.text, a.feeds, a.visibility, a.visibility_tag, a.restrict_replies, a.custom::text,
        a.created_at, a.updated_at, a.edited_at, a.deleted_at, a.expires_at, a.poll_id, a.parent_id, a.mentioned_user_ids,
        COALESCE((
            SELECT json_agg(json_build_object('p', t.payload, 'k', t.object_key) ORDER BY t.position)
            FROM attachments t LEFT JOIN cdn_objects o ON o.key = t.object_key
            WHERE t.activity_id = a.id AND (t.object_key IS NULL OR o.state NOT IN ('deleting', 'deleted'))
        ), '[]')::text,
        u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at,
        \(EngagementColumns.sql(own: own, shownTo: shownTo)),
        \(TagReadable.preview(activity: "a", user: viewer)),
        \(own.map { ActivityHidden.by(activity: "a", user: $0) } ?? "false"),
        (extract(epoch FROM a.created_at) * 1000000)::bigint
        """
    }

    /// The columns without anyone's own fields.
    static let columns = columns(own: nil)

    /// Attachments from their JSON column: `[{"p": payload, "k": object key or null}]`.
    static func attachments(_ text: String) throws -> [StoredAttachment] {
        try JSONText.objects(text).map { stored -> StoredAttachment in
            guard case .object(let payload) = stored["p"] else {
                throw FeedsError(.internal, "an attachment row without payload")
            }
            guard case .string(let key) = stored["k"] else { return StoredAttachment(payload: payload) }
            return StoredAttachment(payload: payload, objectKey: ObjectKey(rawValue: key))
        }
    }

    /// An activity and its exact position in the newest-first order.
    struct Decoded {
        let activity: Activity
        let micros: Int64
    }

    static func decode(_ row: PostgresRow) throws -> Decoded {
        var columns = RowReader(row)
        let id: String = try columns.next(), type: String = try columns.next(), text: String? = try columns.next()
        let feeds: [String] = try columns.next(), visibility: String = try columns.next()
        let visibilityTag: String? = try columns.next(), restrictReplies: String = try columns.next()
        let custom = try JSONText.object(try columns.next())
        let createdAt: Date = try columns.next(), updatedAt: Date = try columns.next()
        let editedAt: Date? = try columns.next(), deletedAt: Date? = try columns.next()
        let expiresAt: Date? = try columns.next(), pollID: String? = try columns.next()
        let parentID: String? = try columns.next(), mentions: [String] = try columns.next()
        let attachments = try attachments(try columns.next())
        let user = try UserRow.user(&columns)
        let engagement = try EngagementColumns.decode(&columns, activityID: id)
        var activity = Activity(
            id: id, type: type, user: user, text: text, feeds: feeds, visibility: Visibility(rawValue: visibility) ?? .public,
            visibilityTag: visibilityTag, restrictReplies: restrictReplies, custom: custom, attachments: attachments,
            createdAt: createdAt, updatedAt: updatedAt, editedAt: editedAt, deletedAt: deletedAt, engagement: engagement,
            expiresAt: expiresAt
        )
        activity.pollID = pollID
        activity.parentID = parentID
        activity.mentionedUserIDs = mentions
        if try columns.next() as Bool { activity.previewed() }
        activity.hidden = try columns.next()
        return Decoded(activity: activity, micros: try columns.next())
    }
}
