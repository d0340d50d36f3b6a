import FeedsCore
import Foundation

/// The columns of an activity read (`a`) that carry its reactions, bookmarks and comments: the
/// counts kept on its row, its newest reactions, and the reader's own reactions and bookmarks,
/// each as one JSON column from a subquery that runs only when the activity's count says there
/// is something to find. A page of 25 is one statement however much it carries.
///
/// A reader with blocks (`Unblocked`) is shown neither the reactions nor the comments of the
/// users blocked either way with them, so their newest reactions leave those out, and the counts
/// they see are the row's less those users' share (`hiddenShare`). Only reads ask for that:
/// a write's read-back is also its event, which others get.
enum EngagementColumns {
    /// `own` is the SQL of the reader's user id (a bind), or nil when nobody's own fields are asked
    /// for; `shownTo` the user whose blocks the counts leave out, or nil for the whole.
    static func sql(own: String?, shownTo: String?) -> String {
        let ownBookmarks =
            own.map {
                """
                CASE WHEN a.bookmark_count > 0 THEN (
                    SELECT json_agg(json_build_array(b.custom, \(micros("b.created_at")), \(micros("b.updated_at")), \(user("bu")),
                        bf.id, bf.name, bf.custom, \(micros("bf.created_at")), \(micros("bf.updated_at")))
                        ORDER BY b.created_at DESC, bf.id DESC)
                    FROM bookmarks b JOIN users bu ON bu.id = b.user_id LEFT JOIN bookmark_folders bf ON bf.id = b.folder_id
                    WHERE b.activity_id = a.id AND b.user_id = \($0) AND b.comment_id IS NULL
                )::text END
                """
            } ?? "NULL::text"
        return """
            a.reaction_count, a.reaction_groups::text, a.bookmark_count, a.comment_count, a.share_count,
            \(latestReactions(of: .activities, shownTo: shownTo)),
            \(ownReactions(of: .activities, own: own)),
            \(ownBookmarks),
            \(hiddenShare(of: .activities, shownTo: shownTo))
            """
    }

    /// Where the reactions of activities (`a`) and of comments (`c`) are.
    enum Reacted {
        case activities, comments

        var alias: String { self == .activities ? "a" : "c" }
        var table: String { self == .activities ? "activity_reactions" : "comment_reactions" }
        var key: String { self == .activities ? "activity_id" : "comment_id" }
        /// The column of `comments` that points at the row: comments on an activity, replies to a comment.
        var commentKey: String { self == .activities ? "activity_id" : "parent_id" }
        /// The row's count of live comments (or replies).
        var commentCount: String { self == .activities ? "a.comment_count" : "c.reply_count" }
    }

    /// The newest reactions to the row, as JSON, without those of users blocked either way with
    /// `shownTo` (a bind; nil for the whole); run only when it has any. The block-aware read runs
    /// only for a reader with a block (`Unblocked.anyBlock`, evaluated once a statement): everyone
    /// else runs the plain one, filtered by nothing.
    static func latestReactions(of reacted: Reacted, shownTo: String?) -> String {
        let plain = newest(of: reacted, unblocked: nil)
        let read =
            shownTo.map { "CASE WHEN \(Unblocked.anyBlock($0)) THEN \(newest(of: reacted, unblocked: $0)) ELSE \(plain) END" }
            ?? plain
        return "CASE WHEN \(reacted.alias).reaction_count > 0 THEN (\(read))::text END"
    }

    /// The subquery of the newest reactions, without those of users blocked either way with `unblocked`.
    private static func newest(of reacted: Reacted, unblocked viewer: String?) -> String {
        let unblocked = viewer.map { " AND \(Unblocked.predicate("lr.user_id", $0))" } ?? ""
        return """
            (
                SELECT json_agg(json_build_array(r.type, r.custom, \(micros("r.created_at")), \(micros("r.updated_at")),
                    \(user("ru"))) ORDER BY r.created_at DESC, r.user_id DESC, r.type DESC)
                FROM (
                    SELECT * FROM \(reacted.table) lr WHERE lr.\(reacted.key) = \(reacted.alias).id\(unblocked)
                    ORDER BY lr.created_at DESC, lr.user_id DESC, lr.type DESC LIMIT \(ActivityEngagement.latestLimit)
                ) r JOIN users ru ON ru.id = r.user_id
            )
            """
    }

    /// What the counts of the row hold of users blocked either way with `shownTo`: their
    /// reactions by type and their live comments (replies, for a comment), as JSON
    /// `[{type: count} or null, comments]`. NULL for the whole, for a reader without blocks and
    /// for a row with nothing counted: the common page never runs it.
    static func hiddenShare(of reacted: Reacted, shownTo viewer: String?) -> String {
        guard let viewer else { return "NULL::text" }
        let (row, blocked) = ("\(reacted.alias).id", Unblocked.users(of: viewer))
        return """
            CASE WHEN \(reacted.alias).reaction_count + \(reacted.commentCount) > 0 AND \(Unblocked.anyBlock(viewer))
            THEN json_build_array(
                (SELECT json_object_agg(h.type, h.n) FROM (
                    SELECT hr.type, count(*) AS n FROM \(reacted.table) hr
                    WHERE hr.\(reacted.key) = \(row) AND hr.user_id IN (\(blocked)) GROUP BY hr.type) h),
                (SELECT count(*) FROM comments hc
                    WHERE hc.\(reacted.commentKey) = \(row) AND hc.deleted_at IS NULL AND hc.user_id IN (\(blocked)))
            )::text END
            """
    }

    /// The reader's reactions to the row, as JSON; run only when it has any.
    static func ownReactions(of reacted: Reacted, own: String?) -> String {
        own.map {
            """
            CASE WHEN \(reacted.alias).reaction_count > 0 THEN (
                SELECT json_agg(json_build_array(r.type, r.custom, \(micros("r.created_at")), \(micros("r.updated_at")),
                    \(user("ru"))) ORDER BY r.created_at DESC, r.type DESC)
                FROM \(reacted.table) r JOIN users ru ON ru.id = r.user_id
                WHERE r.\(reacted.key) = \(reacted.alias).id AND r.user_id = \($0)
            )::text END
            """
        } ?? "NULL::text"
    }

    /// The user `alias` as a JSON array, in `UserRow.columns`' order with times in microseconds.
    static func user(_ alias: String) -> String {
        "json_build_array(\(alias).id, \(alias).name, \(alias).image, \(alias).role, \(alias).language, \(alias).teams, "
            + "\(alias).custom, \(micros("\(alias).created_at")), \(micros("\(alias).updated_at")))"
    }

    static func micros(_ column: String) -> String {
        "(extract(epoch FROM \(column)) * 1000000)::int8"
    }

    /// The engagement in the next nine columns of a row, in the order of `sql(own:)`.
    static func decode(_ columns: inout RowReader, activityID: String) throws -> ActivityEngagement {
        var engagement = ActivityEngagement()
        let reactionCount: Int32 = try columns.next()
        engagement.reactionCount = Int(reactionCount)
        engagement.reactionGroups = try reactionGroups(try columns.next())
        let bookmarkCount: Int32 = try columns.next(), commentCount: Int32 = try columns.next()
        let shareCount: Int32 = try columns.next()
        engagement.bookmarkCount = Int(bookmarkCount)
        engagement.commentCount = Int(commentCount)
        engagement.shareCount = Int(shareCount)
        engagement.latestReactions = try reactions(try columns.next(), activityID: activityID)
        engagement.ownReactions = try reactions(try columns.next(), activityID: activityID)
        engagement.ownBookmarks = try bookmarks(try columns.next(), activityID: activityID)
        let hidden = try HiddenShare(try columns.next())
        engagement.reactionCount -= hidden.leaveOut(of: &engagement.reactionGroups)
        engagement.commentCount = max(0, engagement.commentCount - hidden.comments)
        return engagement
    }

    /// `hiddenShare`'s column: what the counts leave out for the reader.
    struct HiddenShare {
        var reactions: [String: Int] = [:]
        var comments = 0

        init(_ text: String?) throws {
            guard let text else { return }
            guard case .array(let parts) = try JSONValue(parsing: text), parts.count == 2, let comments = parts[1].int
            else { throw JSONParseError(offset: 0, problem: "a hidden share of another shape") }
            self.comments = Int(comments)
            if case .object(let types) = parts[0] {
                for (type, count) in types { reactions[type] = count.int.map(Int.init) ?? 0 }
            }
        }

        /// Takes the hidden reactions out of `groups` (a group left with none goes); how many went.
        func leaveOut(of groups: inout [String: ReactionGroup]) -> Int {
            var removed = 0
            for (type, count) in reactions {
                guard let group = groups[type] else { continue }
                let taken = min(count, group.count)
                removed += taken
                groups[type]?.count -= taken
                if group.count == taken { groups[type] = nil }
            }
            return removed
        }
    }

    /// Reaction groups from their JSON column: `{type: {"count", "first", "last"}}`, times in µs.
    static func reactionGroups(_ text: String) throws -> [String: ReactionGroup] {
        var groups: [String: ReactionGroup] = [:]
        for (type, group) in try JSONText.object(text) {
            guard case .object(let fields) = group, let count = fields["count"]?.int, let first = fields["first"]?.int,
                let last = fields["last"]?.int
            else { throw JSONParseError(offset: 0, problem: "a reaction group without count, first and last") }
            groups[type] = ReactionGroup(
                count: Int(count), firstReactionAt: date(micros: first), lastReactionAt: date(micros: last))
        }
        return groups
    }

    /// Reactions from the JSON of `json_build_array(type, custom, created, updated, user)` rows.
    static func reactions(_ text: String?, activityID: String, commentID: String? = nil) throws -> [Reaction] {
        try arrays(text).map { row in
            guard row.count == 5, case .string(let type) = row[0], case .object(let custom) = row[1],
                let created = row[2].int, let updated = row[3].int
            else { throw JSONParseError(offset: 0, problem: "a reaction row of another shape") }
            return Reaction(
                activityID: activityID, commentID: commentID, type: type, user: try user(row[4]), custom: custom,
                createdAt: date(micros: created), updatedAt: date(micros: updated))
        }
    }

    private static func bookmarks(_ text: String?, activityID: String) throws -> [Bookmark] {
        try arrays(text).map { row in
            guard row.count == 9, case .object(let custom) = row[0], let created = row[1].int, let updated = row[2].int
            else { throw JSONParseError(offset: 0, problem: "a bookmark row of another shape") }
            let user = try user(row[3])
            var folder: BookmarkFolder?
            if case .string(let id) = row[4], case .string(let name) = row[5], case .object(let folderCustom) = row[6],
                let folderCreated = row[7].int, let folderUpdated = row[8].int
            {
                folder = BookmarkFolder(
                    id: id, user: user, name: name, custom: folderCustom, createdAt: date(micros: folderCreated),
                    updatedAt: date(micros: folderUpdated))
            }
            return Bookmark(
                activityID: activityID, user: user, folder: folder, custom: custom, createdAt: date(micros: created),
                updatedAt: date(micros: updated))
        }
    }

    /// A user from the JSON of `user(_:)`.
    static func user(_ value: JSONValue) throws -> User {
        guard case .array(let fields) = value, fields.count == 9, case .string(let id) = fields[0],
            case .string(let role) = fields[3], case .string(let language) = fields[4], case .array(let teams) = fields[5],
            case .object(let custom) = fields[6], let created = fields[7].int, let updated = fields[8].int
        else { throw JSONParseError(offset: 0, problem: "a user row of another shape") }
        return User(
            id: id, name: fields[1].stringValue, image: fields[2].stringValue, role: role, language: language,
            teams: teams.compactMap(\.stringValue), custom: custom, createdAt: date(micros: created),
            updatedAt: date(micros: updated))
    }

    private static func arrays(_ text: String?) throws -> [[JSONValue]] {
        guard let text else { return [] }
        guard case .array(let rows) = try JSONValue(parsing: text) else {
            throw JSONParseError(offset: 0, problem: "not an array")
        }
        return try rows.map { row in
            guard case .array(let fields) = row else { throw JSONParseError(offset: 0, problem: "not an array of arrays") }
            return fields
        }
    }

    static func date(micros: Int64) -> Date {
        Date(microsecondsSince1970: micros)
    }
}

extension JSONValue {
    /// A whole number, as JSON from PostgreSQL writes microseconds and counts (exact below 2^53).
    fileprivate var int: Int64? {
        if case .number(let value) = self, value.rounded() == value, abs(value) < 9e15 { return Int64(value) }
        return nil
    }

    fileprivate var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
