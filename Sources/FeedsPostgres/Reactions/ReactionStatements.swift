import FeedsCore
import Foundation
import PostgresNIO

/// AddActivityReaction's write, one statement: the user (if new), the removal of the user's other
/// reactions to the activity (`enforce_unique`), and the reaction, stored once per user and type
/// (again: its custom data replaced). Nothing is written, and no row comes back, when the
/// activity is deleted, missing, or not the reader's to see. The trigger on `activity_reactions`
/// keeps the activity's counts. Prepared once per connection.
struct InsertReaction: PostgresPreparedStatement {
    typealias Row = Reaction

    static let name = "InsertReaction"

    static let sql = """
        WITH new_user AS (
            INSERT INTO users (id) VALUES ($2) ON CONFLICT (id) DO NOTHING RETURNING \(UserRow.columns)
        ), reactor AS (
            SELECT \(UserRow.columns) FROM new_user UNION ALL SELECT \(UserRow.columns) FROM users WHERE id = $2
        ), target AS (
            SELECT a.id FROM activities a
            WHERE a.id = $1 AND a.deleted_at IS NULL AND ($5::text IS NULL OR a.visibility = 'public' OR a.user_id = $5)
        ), others AS (
            DELETE FROM activity_reactions r USING target
            WHERE $6 AND r.activity_id = target.id AND r.user_id = $2 AND r.type <> $3
        ), stored AS (
            INSERT INTO activity_reactions (activity_id, user_id, type, custom)
            SELECT target.id, $2, $3, $4::jsonb FROM target
            ON CONFLICT (activity_id, user_id, type) DO UPDATE SET custom = EXCLUDED.custom,
                updated_at = CASE WHEN activity_reactions.custom = EXCLUDED.custom THEN activity_reactions.updated_at ELSE now() END
            RETURNING type, custom::text, created_at, updated_at
        )
        SELECT stored.*, reactor.* FROM stored, reactor LIMIT 1
        """

    let activityID: String
    let userID: String
    let input: ReactionInput
    /// The user whose reading rights apply: nil when the server acts.
    let reader: String?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(activityID)
        bindings.append(userID)
        bindings.append(input.type)
        bindings.append(JSONText.encode(input.custom))
        bindings.append(reader)
        bindings.append(input.enforceUnique)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Reaction {
        var columns = RowReader(row)
        return try ReactionRow.reaction(&columns, activityID: activityID)
    }
}

/// A reaction in the columns `type, custom::text, created_at, updated_at` and its user's.
enum ReactionRow {
    static func reaction(_ columns: inout RowReader, activityID: String) throws -> Reaction {
        let type: String = try columns.next()
        let custom = try JSONText.object(try columns.next())
        let created: Date = try columns.next(), updated: Date = try columns.next()
        return Reaction(
            activityID: activityID, type: type, user: try UserRow.user(&columns), custom: custom, createdAt: created,
            updatedAt: updated)
    }
}
