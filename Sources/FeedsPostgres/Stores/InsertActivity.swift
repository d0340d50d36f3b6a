import FeedsCore
import Foundation
import PostgresNIO

/// The create: the user (if new), the activity, its feed rows, its feeds (if new), its
/// attachments and the share count of the activity it shares in one statement of data-modifying
/// CTEs, which PostgreSQL runs atomically (foreign keys are checked at its end, so the rows may
/// reference each other). The trigger that counts a feed's posts queues the fan-out when the feed
/// has followers (migration 0007). A user posts only to feeds that are theirs, new ones they may
/// create (`FeedPermissions`: `user:<them>`, not `user:<someone else>`), or others' where the app
/// grants them posting (`FeedGrants`, a member of a community feed): otherwise nothing is written
/// and no row comes back. Prepared once per connection: planning these CTEs costs more than
/// running them.
struct InsertActivity: PostgresPreparedStatement {
    /// The activity's times, and its user unless another request created it after the statement's snapshot.
    typealias Row = (created: Date, updated: Date, user: User?)

    /// Spelt out: PostgresNIO's default name reflects the type again on every execution.
    static let name = "InsertActivity"

    static let sql = """
        WITH new_user AS (
            INSERT INTO users (id) VALUES ($3) ON CONFLICT (id) DO NOTHING
            RETURNING \(UserRow.columns)
        ), author AS (
            SELECT \(UserRow.columns) FROM new_user
            UNION ALL SELECT \(UserRow.columns) FROM users WHERE id = $3
        ), a AS (
            INSERT INTO activities (
                id, type, user_id, text, feeds, visibility, visibility_tag, restrict_replies, custom, expires_at, poll_id,
                parent_id, mentioned_user_ids)
            SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $17, $18, $19, $20
            WHERE $15::text IS NULL OR (NOT EXISTS (
                    SELECT 1 FROM feeds pf WHERE pf.fid = ANY($5) AND NOT \(FeedReadable.permits(.post, feed: "pf", user: "$15")))
                AND (SELECT count(*) FROM feeds WHERE fid = ANY($16)) = cardinality($16::text[]))
            RETURNING id, created_at, updated_at
        ), feed_rows AS (
            INSERT INTO activity_feeds (feed, created_at, activity_id)
            SELECT f, a.created_at, a.id FROM a, unnest($5::text[]) AS f ORDER BY f  -- feed rows' counts in one order
        ), new_feeds AS (
            INSERT INTO feeds (fid, group_id, feed_id, created_by, visibility)
            SELECT f, g, i, $3, \(FeedGroupSQL.defaultVisibility(ofGroup: "g"))
            FROM a, unnest($5::text[], $10::text[], $11::text[]) AS x(f, g, i)
            ON CONFLICT (fid) DO NOTHING
        ), attached AS (
            INSERT INTO attachments (activity_id, position, type, payload, object_key)
            SELECT a.id, x.n - 1, NULLIF(x.t, ''), x.p::jsonb, NULLIF(x.k, '')
            FROM a, unnest($12::text[], $13::text[], $14::text[]) WITH ORDINALITY AS x(t, p, k, n)
        ), shared AS (
            UPDATE activities SET share_count = share_count + 1 FROM a WHERE activities.id = $19
        )
        SELECT a.created_at, a.updated_at, author.* FROM a LEFT JOIN author ON true LIMIT 1
        """

    /// Why a user's post into a feed was refused.
    static let refusal = "it is another user's feed, and the app grants them no posting there (UpdateFeedVisibility)"

    let draft: ActivityDraft
    let attachments: AttachmentColumns
    private let custom: String
    /// The user who must own every feed posted to that exists: nil when the server posts.
    private let poster: String?
    /// The feeds posted to that the poster may not create: each must exist (and so be theirs).
    private let mustExist: [String]

    init(_ draft: ActivityDraft, by poster: Principal) {
        self.draft = draft
        self.poster = poster.userID
        self.mustExist = draft.feeds.filter { !FeedPermissions.mayCreate($0, by: poster) }.map(\.description)
        self.attachments = AttachmentColumns(draft.attachments)
        self.custom = JSONText.encode(draft.custom)
    }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 20)
        bindings.append(draft.id)
        bindings.append(draft.type)
        bindings.append(draft.userID)
        bindings.append(draft.text)
        bindings.append(draft.feeds.map(\.description))
        bindings.append(draft.visibility.rawValue)
        bindings.append(draft.visibilityTag)
        bindings.append(draft.restrictReplies)
        bindings.append(custom)
        bindings.append(draft.feeds.map(\.group))
        bindings.append(draft.feeds.map(\.id))
        bindings.append(attachments.types)
        bindings.append(attachments.payloads)
        bindings.append(attachments.keys)
        bindings.append(poster)
        bindings.append(mustExist)
        bindings.append(draft.expiresAt)
        bindings.append(draft.pollID)
        bindings.append(draft.parentID)
        bindings.append(draft.mentionedUserIDs)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        var columns = RowReader(row)
        let created: Date = try columns.next(), updated: Date = try columns.next()
        // No user columns (all null) when the user was created by a concurrent request.
        guard let id: String = try columns.next() else { return (created, updated, nil) }
        return (created, updated, try UserRow.user(id: id, &columns))
    }
}

/// Attachments as the parallel arrays an `unnest` inserts, the object key in its own column.
/// (Arrays of text cannot hold Swift optionals: "" is none.)
struct AttachmentColumns {
    var types: [String] = []
    var payloads: [String] = []
    var keys: [String] = []
    /// The keys of the objects linked.
    var linked: [String] { keys.filter { !$0.isEmpty } }

    init(_ attachments: [StoredAttachment]) {
        for attachment in attachments {
            types.append(attachment.type ?? "")
            payloads.append(JSONText.encode(attachment.payload))
            keys.append(attachment.objectKey?.rawValue ?? "")
        }
    }
}
