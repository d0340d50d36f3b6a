import FeedsCore
import Foundation
import PostgresNIO

/// A comment in one statement, with no transaction around it: the activity's check (readable by
/// the commenter, and taking replies from them: `restrict_replies` `nobody` leaves only the
/// activity's owner, `people_i_follow` those a feed of the owner follows), the user (if new), the comment, its attachments
/// and the objects it links marked attached. Data-modifying CTEs run atomically, so when the check
/// fails or a linked object is gone nothing is written; the row that comes back says which, or
/// gives the new comment's times and user (so that it needs no read back).
/// Prepared once per connection, as the activity insert is. The activity is held FOR KEY SHARE,
/// not SHARE: the comment count's trigger then updates its row (NO KEY UPDATE), which another
/// comment's SHARE would block while it waited for this one's, a deadlock.
struct InsertComment: PostgresPreparedStatement {
    /// `made` false says why in the other columns: no `restriction` when the activity is missing
    /// or hidden, `allowed` false when it takes no comments from this user, otherwise the linked
    /// objects that could be attached (`attachable`) lack one.
    typealias Row = (made: Bool, restriction: String?, allowed: Bool?, attachable: [String], stored: Stored?)

    /// What the insert returns of the comment it made: its times, and its user unless another
    /// request created that user after the statement's snapshot.
    typealias Stored = (created: Date, updated: Date, user: User?)

    static let name = "InsertComment"

    static let sql = """
        WITH target AS (
            SELECT a.id, a.restrict_replies,
                   $13::text IS NULL OR a.user_id = $4 OR a.restrict_replies NOT IN ('nobody', 'people_i_follow')
                   OR (a.restrict_replies = 'people_i_follow' AND EXISTS (
                       SELECT 1 FROM follows w JOIN feeds s ON s.fid = w.source_fid JOIN feeds t ON t.fid = w.target_fid
                       WHERE s.created_by = a.user_id AND t.created_by = $4 AND w.status = 'accepted')) AS allowed
            FROM activities a
            WHERE a.id = $2 AND \(ActivityLive.predicate("a"))
              AND \(ActivityReadable.predicate(activity: "a", userOrServer: "$13", for: .engage))
            FOR KEY SHARE OF a
        ), attachable AS (
            SELECT key FROM cdn_objects
            WHERE key = ANY($12) AND state IN ('reserved', 'stored', 'attached', 'released')
            FOR UPDATE
        ), ok AS (
            SELECT id FROM target
            WHERE allowed AND (SELECT count(*) FROM attachable) = (SELECT count(DISTINCT k) FROM unnest($12::text[]) k)
        ), new_user AS (
            INSERT INTO users (id) SELECT $4 FROM ok ON CONFLICT (id) DO NOTHING
            RETURNING \(UserRow.columns)
        ), author AS (
            SELECT \(UserRow.columns) FROM new_user
            UNION ALL SELECT \(UserRow.columns) FROM users WHERE id = $4
        ), made AS (
            INSERT INTO comments (id, activity_id, parent_id, user_id, depth, text, custom, mentioned_user_ids)
            SELECT $1, ok.id, $3, $4, $5, $6, $7::jsonb, $8 FROM ok
            RETURNING id, created_at, updated_at
        ), attached AS (
            INSERT INTO comment_attachments (comment_id, position, type, payload, object_key)
            SELECT made.id, x.n - 1, NULLIF(x.t, ''), x.p::jsonb, NULLIF(x.k, '')
            FROM made, unnest($9::text[], $10::text[], $11::text[]) WITH ORDINALITY AS x(t, p, k, n)
        ), linked AS (
            UPDATE cdn_objects SET state = 'attached', updated_at = now()
            WHERE key IN (SELECT key FROM attachable) AND EXISTS (SELECT 1 FROM made)
        )
        SELECT EXISTS (SELECT 1 FROM made), (SELECT restrict_replies FROM target), (SELECT allowed FROM target),
               ARRAY(SELECT key FROM attachable), made.created_at, made.updated_at, author.*
        FROM (SELECT 1) AS one LEFT JOIN made ON true LEFT JOIN (SELECT * FROM author LIMIT 1) AS author ON true
        """

    let draft: CommentDraft
    let activityID: String
    let depth: Int
    /// The user the activity must be readable by: nil when the server comments.
    let reader: String?
    private let attachments: AttachmentColumns
    private let custom: String

    init(_ draft: CommentDraft, activityID: String, depth: Int, reader: String?) {
        self.draft = draft
        self.activityID = activityID
        self.depth = depth
        self.reader = reader
        self.attachments = AttachmentColumns(draft.attachments)
        self.custom = JSONText.encode(draft.custom)
    }

    /// The linked object keys, in the order the comment names them.
    var linked: [String] { attachments.linked }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 13)
        bindings.append(draft.id)
        bindings.append(activityID)
        bindings.append(draft.parentID)
        bindings.append(draft.userID)
        bindings.append(depth)
        bindings.append(draft.text)
        bindings.append(custom)
        bindings.append(draft.mentionedUserIDs)
        bindings.append(attachments.types)
        bindings.append(attachments.payloads)
        bindings.append(attachments.keys)
        bindings.append(attachments.linked)
        bindings.append(reader)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        var columns = RowReader(row)
        let made: Bool = try columns.next(), restriction: String? = try columns.next(), allowed: Bool? = try columns.next()
        let attachable: [String] = try columns.next()
        guard made, let created: Date = try columns.next(), let updated: Date = try columns.next() else {
            return (made, restriction, allowed, attachable, nil)
        }
        // No user columns (all null) when the user was created by a concurrent request.
        guard let id: String = try columns.next() else {
            return (made, restriction, allowed, attachable, (created, updated, nil))
        }
        return (made, restriction, allowed, attachable, (created, updated, try UserRow.user(id: id, &columns)))
    }
}
