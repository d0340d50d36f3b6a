import FeedsCore
import Foundation
import PostgresNIO

/// The columns every activity read selects, and how a row becomes an `Activity`.
enum ActivityRow {
    /// `a` is the activity, `u` its user. Attachments of deleted objects are left out; those of live
    /// objects carry their key for signing. The last column is the exact microsecond timestamp for cursors.
    static let columns = """
        a.id, a.type, a.text, a.feeds, a.visibility, a.visibility_tag, a.restrict_replies, a.custom::text,
        a.created_at, a.updated_at, a.edited_at, a.deleted_at,
        COALESCE((
            SELECT json_agg(
                CASE WHEN t.object_key IS NULL THEN t.payload
                     ELSE t.payload || jsonb_build_object('\(AttachmentPayload.objectKeyField)', t.object_key) END
                ORDER BY t.position)
            FROM attachments t LEFT JOIN cdn_objects o ON o.key = t.object_key
            WHERE t.activity_id = a.id AND (t.object_key IS NULL OR o.state <> 'deleted')
        ), '[]')::text,
        u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at,
        (extract(epoch FROM a.created_at) * 1000000)::bigint
        """

    /// An activity and its exact position in the newest-first order.
    struct Decoded {
        let activity: Activity
        let micros: Int64
    }

    static func decode(_ row: PostgresRow) throws -> Decoded {
        let c = try row.decode(
            (
                String, String, String?, [String], String, String?, String, String, Date, Date, Date?, Date?, String,
                String, String?, String?, String, String, [String], String, Date, Date, Int64
            ).self
        )
        let user = try UserRow.user((c.13, c.14, c.15, c.16, c.17, c.18, c.19, c.20, c.21))
        let activity = Activity(
            id: c.0, type: c.1, user: user, text: c.2, feeds: c.3, visibility: Visibility(rawValue: c.4) ?? .public,
            visibilityTag: c.5, restrictReplies: c.6, custom: try JSONText.object(c.7),
            attachments: try JSONText.objects(c.12), createdAt: c.8, updatedAt: c.9, editedAt: c.10, deletedAt: c.11
        )
        return Decoded(activity: activity, micros: c.22)
    }
}
