import FeedsCore
import Foundation
import PostgresNIO

/// AddActivityReaction's and AddCommentReaction's write, one statement: the user (if new), the
/// removal of the user's other reactions to the object (`enforce_unique`), and the reaction,
/// stored once per user and type (again: its custom data replaced). Nothing is written, and no
/// row comes back, when the object is deleted, missing, or not the reader's to see, or when the
/// user has `ReactionInput.maxTypesPerUser` types on it already (one user's thousands of types
/// would grow every read of the object). The trigger
/// on the reactions table keeps the object's counts. Prepared once per connection.
struct InsertReaction<Target: ReactionTable>: PostgresPreparedStatement {
    /// The reaction, and whether its user was created by a concurrent request after this
    /// statement's snapshot (its columns then come back null: the user is read again).
    typealias Row = (reaction: Reaction, userCreatedMeanwhile: Bool)

    static var name: String { Target.insertName }

    static var sql: String {
        "\(writes)\nSELECT stored.*, reactor.* FROM stored LEFT JOIN reactor ON true LIMIT 1"
    }

    /// The statement's `WITH`: `reactor` the user's row (none when made meanwhile), `stored` the
    /// reaction's, none when nothing was written.
    static var writes: String {
        """
        WITH new_user AS (
            INSERT INTO users (id) VALUES ($2) ON CONFLICT (id) DO NOTHING RETURNING \(UserRow.columns)
        ), reactor AS (
            SELECT \(UserRow.columns) FROM new_user UNION ALL SELECT \(UserRow.columns) FROM users WHERE id = $2
        ), target AS (
            \(Target.target)
        ), room AS (
            SELECT target.id FROM target
            WHERE $6 OR EXISTS (SELECT 1 FROM \(Target.table) r WHERE r.\(Target.key) = target.id AND r.user_id = $2 AND r.type = $3)
               OR (SELECT count(*) FROM \(Target.table) r WHERE r.\(Target.key) = target.id AND r.user_id = $2) < $7
        ), others AS (
            DELETE FROM \(Target.table) r USING target
            WHERE $6 AND r.\(Target.key) = target.id AND r.user_id = $2 AND r.type <> $3
        ), stored AS (
            INSERT INTO \(Target.table) (\(Target.key), user_id, type, custom)
            SELECT room.id, $2, $3, $4::jsonb FROM room
            ON CONFLICT (\(Target.key), user_id, type) DO UPDATE SET custom = EXCLUDED.custom,
                updated_at = CASE WHEN \(Target.table).custom = EXCLUDED.custom THEN \(Target.table).updated_at ELSE now() END
            RETURNING type, custom::text, created_at, updated_at
        )
        """
    }

    let objectID: String
    let activityID: String
    let userID: String
    let input: ReactionInput
    /// The user whose reading rights apply: nil when the server acts.
    let reader: String?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 7)
        bindings.append(objectID)
        bindings.append(userID)
        bindings.append(input.type)
        bindings.append(JSONText.encode(input.custom))
        bindings.append(reader)
        bindings.append(input.enforceUnique)
        bindings.append(ReactionInput.maxTypesPerUser)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        var columns = RowReader(row)
        return try decode(&columns)
    }

    /// The row's first columns, `stored`'s and `reactor`'s.
    func decode(_ columns: inout RowReader) throws -> Row {
        let type: String = try columns.next()
        let custom = try JSONText.object(try columns.next())
        let created: Date = try columns.next(), updated: Date = try columns.next()
        let id: String? = try columns.next()
        let user = try id.map { try UserRow.user(id: $0, &columns) } ?? User(id: userID, createdAt: created, updatedAt: created)
        let reaction = Reaction(
            activityID: activityID, commentID: Target.isComment ? objectID : nil, type: type, user: user, custom: custom,
            createdAt: created, updatedAt: updated)
        return (reaction, id == nil)
    }
}

/// Where one kind of object's reactions are, and which of those objects a reader may react to ($1
/// the object, $5 the reader or NULL for the server).
protocol ReactionTable {
    static var insertName: String { get }
    static var table: String { get }
    static var key: String { get }
    static var target: String { get }
    static var isComment: Bool { get }
}

enum ActivityReactions: ReactionTable {
    static let insertName = "InsertReaction"
    static let table = "activity_reactions"
    static let key = "activity_id"
    static let target = """
        SELECT a.id FROM activities a
            WHERE a.id = $1 AND \(ActivityLive.predicate("a"))
              AND \(ActivityReadable.predicate(activity: "a", userOrServer: "$5", for: .engage))
        """
    static let isComment = false
}

enum CommentReactions: ReactionTable {
    static let insertName = "InsertCommentReaction"
    static let table = "comment_reactions"
    static let key = "comment_id"
    static let target = """
        SELECT c.id FROM comments c JOIN activities a ON a.id = c.activity_id
            WHERE c.id = $1 AND c.deleted_at IS NULL AND \(ActivityLive.predicate("a"))
              AND \(ActivityReadable.predicate(activity: "a", userOrServer: "$5", for: .engage))
              AND ($5::text IS NULL OR \(Unblocked.predicate("c.user_id", "$5")))
        """
    static let isComment = true
}

/// A reaction in the columns `type, custom::text, created_at, updated_at` and its user's.
enum ReactionRow {
    static func reaction(_ columns: inout RowReader, activityID: String, commentID: String? = nil) throws -> Reaction {
        let type: String = try columns.next()
        let custom = try JSONText.object(try columns.next())
        let created: Date = try columns.next(), updated: Date = try columns.next()
        return Reaction(
            activityID: activityID, commentID: commentID, type: type, user: try UserRow.user(&columns), custom: custom,
            createdAt: created, updatedAt: updated)
    }
}
