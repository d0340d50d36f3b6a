import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// Membership levels in `membership_levels` (migration 0037). A level is read as one JSON column
/// (`LevelJSON`), the same wherever it comes: alone, or as a member's.
extension PostgresMemberStore {
    public func createLevel(_ id: String, _ change: MembershipLevelChange, logger: Logger) async throws -> MembershipLevel {
        try MembershipLevelChange.checkID(id)
        guard let name = change.name else { throw FeedsError.input("name is required", field: "name") }
        let rows = try await client.query(
            """
            INSERT INTO membership_levels (id, name, description, priority, tags, custom)
            SELECT \(id), \(name), \(change.description), \(change.priority ?? 0), \(change.tags ?? []),
                \(JSONText.encode(change.custom ?? [:]))::jsonb
            WHERE (SELECT count(*) FROM membership_levels) < \(MembershipLevel.maxLevels)
            ON CONFLICT (id) DO NOTHING
            RETURNING \(unescaped: LevelJSON.column("membership_levels"))
            """, logger: logger)
        for try await text in rows.decode(String.self) { return try LevelJSON.level(text) }
        let exists = try await client.query("SELECT 1 FROM membership_levels WHERE id = \(id)", logger: logger)
        for try await _ in exists { throw FeedsError(.conflict, "membership level \(id) already exists", field: "id") }
        throw FeedsError.input("an app keeps at most \(MembershipLevel.maxLevels) membership levels", field: "id")
    }

    public func updateLevel(_ id: String, _ change: MembershipLevelChange, logger: Logger) async throws -> MembershipLevel {
        let rows = try await client.query(
            """
            UPDATE membership_levels SET name = COALESCE(\(change.name), name),
                description = COALESCE(\(change.description), description), priority = COALESCE(\(change.priority), priority),
                tags = COALESCE(\(change.tags), tags), custom = COALESCE(\(change.custom.map { JSONText.encode($0) })::jsonb, custom),
                updated_at = now()
            WHERE id = \(id)
            RETURNING \(unescaped: LevelJSON.column("membership_levels"))
            """, logger: logger)
        for try await text in rows.decode(String.self) { return try LevelJSON.level(text) }
        throw FeedsError.notFound("membership level \(id.prefix(255)) does not exist")
    }

    public func deleteLevel(_ id: String, logger: Logger) async throws {
        let rows = try await client.query("DELETE FROM membership_levels WHERE id = \(id) RETURNING id", logger: logger)
        for try await _ in rows { return }
        throw FeedsError.notFound("membership level \(id.prefix(255)) does not exist")
    }

    public func queryLevels(_ query: MembershipLevelQuery, logger: Logger) async throws -> MembershipLevelPage {
        var bind = SQLBinds()
        var sql = "SELECT \(LevelJSON.column("l")) FROM membership_levels l WHERE true"
        if let ids = query.ids { sql += " AND l.id = ANY(\(try bind(ids)))" }
        if let names = query.names { sql += " AND l.name = ANY(\(try bind(names)))" }
        if let tags = query.tags { sql += " AND l.tags && \(try bind(tags))::text[]" }
        for bound in query.priority { sql += " AND l.priority \(bound.comparison) \(try bind(bound.value))" }
        let order = query.page.ascending ? "ASC" : "DESC"
        // Priority sorts tie on creation, then id; creation ties on id.
        let key = query.byPriority ? "(l.priority, l.created_at, l.id)" : "(l.created_at, l.id)"
        if let cursor = query.page.cursor, let priority = Int(cursor.keys[0]) {
            let time = try bind.time(microseconds: cursor.micros)
            let after =
                query.byPriority
                ? "(\(try bind(priority)), \(time), \(try bind(cursor.keys[1])))" : "(\(time), \(try bind(cursor.keys[1])))"
            sql += " AND \(key) \(query.page.ascending ? ">" : "<") \(after)"
        }
        let columns = query.byPriority ? ["l.priority", "l.created_at", "l.id"] : ["l.created_at", "l.id"]
        sql += " ORDER BY \(columns.map { "\($0) \(order)" }.joined(separator: ", ")) LIMIT \(query.page.limit + 1)"
        var levels: [MembershipLevel] = []
        for try await text in try await reads.query(bind.query(sql), logger: logger).decode(String.self) {
            levels.append(try LevelJSON.level(text))
        }
        let more = levels.count > query.page.limit
        if more { levels.removeLast() }
        return MembershipLevelPage(levels: levels, next: more ? levels.last.map(query.cursor(after:)) : nil)
    }
}

/// A membership level as one JSON column, and back.
enum LevelJSON {
    /// The level of the `membership_levels` row `alias`, as JSON text (times in microseconds).
    static func column(_ alias: String) -> String {
        """
        json_build_object('id', \(alias).id, 'name', \(alias).name, 'description', \(alias).description,
            'priority', \(alias).priority, 'tags', \(alias).tags, 'custom', \(alias).custom,
            'created_at', (extract(epoch FROM \(alias).created_at) * 1000000)::bigint,
            'updated_at', (extract(epoch FROM \(alias).updated_at) * 1000000)::bigint)::text
        """
    }

    /// A member's level (the row `m` of `feed_members`), NULL when they hold none.
    static let ofMember = "(SELECT \(column("ml")) FROM membership_levels ml WHERE ml.id = m.membership_level)"

    static func level(_ text: String) throws -> MembershipLevel {
        let object = try JSONText.object(text)
        guard case .string(let id)? = object["id"], case .string(let name)? = object["name"],
            case .number(let priority)? = object["priority"], case .number(let created)? = object["created_at"],
            case .number(let updated)? = object["updated_at"]
        else { throw FeedsError(.internal, "a membership level row without its fields") }
        var description: String?
        if case .string(let text)? = object["description"] { description = text }
        var tags: [String] = []
        if case .array(let values)? = object["tags"] {
            tags = values.compactMap { if case .string(let tag) = $0 { tag } else { nil } }
        }
        var custom: JSONObject = [:]
        if case .object(let given)? = object["custom"] { custom = given }
        return MembershipLevel(
            id: id, name: name, description: description, priority: Int(priority), tags: tags, custom: custom,
            createdAt: Date(microsecondsSince1970: Int64(created)), updatedAt: Date(microsecondsSince1970: Int64(updated)))
    }
}
