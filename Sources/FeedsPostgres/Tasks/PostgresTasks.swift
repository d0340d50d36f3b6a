import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// The `tasks` table: tasks recorded done by the call that did the work, tasks queued for a
/// worker (`TaskWorker`), and GetTask's read. Tasks are kept a week, as Stream keeps them.
extension PostgresActivityStore {
    public func task(id: String, logger: Logger) async throws -> BackgroundTask? {
        guard let uuid = UUID(uuidString: id) else { return nil }
        let rows = try await client.query(
            "SELECT \(unescaped: PostgresTasks.columns) FROM tasks WHERE id = \(uuid)", logger: logger)
        for try await row in rows { return try PostgresTasks.decode(row) }
        return nil
    }

    /// Records work done as a completed task (GetTask).
    static func recordTask(
        _ kind: String, result: [String: JSONValue], on connection: PostgresConnection, logger: Logger
    ) async throws -> BackgroundTask {
        try await PostgresTasks.insert(kind, status: .completed, input: "{}", result: result, on: connection, logger: logger)
    }
}

/// Queued tasks: written by the call, claimed and run by workers, one holder at a time.
public struct PostgresTasks: Sendable {
    let client: PostgresClient

    public init(client: PostgresClient) { self.client = client }

    static let columns = "id::text, kind, status, result::text, created_at, updated_at, error::text"

    static func decode(_ row: PostgresRow) throws -> BackgroundTask {
        let (id, kind, status, result, created, updated, error) = try row.decode(
            (String, String, String, String, Date, Date, String?).self)
        return BackgroundTask(
            id: id, kind: kind, status: BackgroundTask.Status(rawValue: status) ?? .failed,
            result: try JSONText.object(result), createdAt: created, updatedAt: updated,
            error: try error.map { try JSONDecoder().decode(BackgroundTask.Failure.self, from: Data($0.utf8)) })
    }

    /// A task row, in the caller's transaction: a queued task exists only if its call committed.
    static func insert(
        _ kind: String, status: BackgroundTask.Status, input: String, result: [String: JSONValue],
        on connection: PostgresConnection, logger: Logger
    ) async throws -> BackgroundTask {
        let id = UUID()
        try await connection.query("DELETE FROM tasks WHERE created_at < now() - interval '7 days'", logger: logger)
        let rows = try await connection.query(
            """
            INSERT INTO tasks (id, kind, status, input, result)
            VALUES (\(id), \(kind), \(status.rawValue), \(input)::jsonb, \(JSONText.encode(result))::jsonb)
            RETURNING \(unescaped: columns)
            """, logger: logger)
        for try await row in rows { return try decode(row) }
        throw FeedsError(.internal, "task \(id) was not recorded")
    }

    /// A task a worker holds: its input as written, its progress so far.
    public struct Claimed: Sendable {
        public let id: String
        public let kind: String
        public let input: String
        public var result: [String: JSONValue]
        public let attempts: Int
    }

    /// The oldest waiting task nobody holds (or whose holder's hold ran out), now `holder`'s
    /// for `hold`.
    func claim(holder: String, hold: Duration, logger: Logger) async throws -> Claimed? {
        let rows = try await client.query(
            """
            UPDATE tasks t SET status = 'running', held_by = \(holder),
                held_until = now() + \(hold.components.seconds) * interval '1 second', updated_at = now()
            FROM (
                SELECT id FROM tasks WHERE status IN ('pending', 'running') AND (held_until IS NULL OR held_until < now())
                ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
            ) w
            WHERE t.id = w.id
            RETURNING t.id::text, t.kind, t.input::text, t.result::text, t.attempts
            """, logger: logger)
        for try await (id, kind, input, result, attempts) in rows.decode((String, String, String, String, Int).self) {
            return Claimed(id: id, kind: kind, input: input, result: try JSONText.object(result), attempts: attempts)
        }
        return nil
    }

    /// Saves progress and renews the hold; false when the task is no longer `holder`'s.
    func save(_ task: Claimed, holder: String, hold: Duration, logger: Logger) async throws -> Bool {
        try await exists(
            try await client.query(
                """
                UPDATE tasks SET result = \(JSONText.encode(task.result))::jsonb, updated_at = now(),
                    held_until = now() + \(hold.components.seconds) * interval '1 second'
                WHERE id = \(task.id)::uuid AND held_by = \(holder) RETURNING 1
                """, logger: logger))
    }

    func finish(_ task: Claimed, holder: String, logger: Logger) async throws {
        try await client.query(
            """
            UPDATE tasks SET status = 'completed', result = \(JSONText.encode(task.result))::jsonb, updated_at = now(),
                held_by = NULL, held_until = NULL
            WHERE id = \(task.id)::uuid AND held_by = \(holder)
            """, logger: logger)
    }

    func fail(_ task: Claimed, holder: String, _ failure: BackgroundTask.Failure, logger: Logger) async throws {
        try await client.query(
            """
            UPDATE tasks SET status = 'failed', error = \(try JSONText.encode(failure))::jsonb,
                result = \(JSONText.encode(task.result))::jsonb, updated_at = now(), held_by = NULL, held_until = NULL
            WHERE id = \(task.id)::uuid AND held_by = \(holder)
            """, logger: logger)
    }

    /// Lets the task go for `wait`, one attempt spent: a worker takes it up again after.
    func postpone(_ task: Claimed, holder: String, wait: Duration, logger: Logger) async throws {
        try await client.query(
            """
            UPDATE tasks SET attempts = attempts + 1, result = \(JSONText.encode(task.result))::jsonb, updated_at = now(),
                held_by = NULL, held_until = now() + \(wait.components.seconds) * interval '1 second'
            WHERE id = \(task.id)::uuid AND held_by = \(holder)
            """, logger: logger)
    }

    private func exists(_ rows: PostgresRowSequence) async throws -> Bool {
        for try await _ in rows { return true }
        return false
    }
}

/// A task's `result`, as its steps keep their progress in it.
extension [String: JSONValue] {
    /// A count (0 when not yet kept).
    func count(_ key: String) -> Int {
        if case .number(let n)? = self[key] { return Int(n) }
        return 0
    }

    func text(_ key: String) -> String? {
        if case .string(let text)? = self[key] { return text }
        return nil
    }

    func strings(_ key: String) -> [String] {
        guard case .array(let values)? = self[key] else { return [] }
        return values.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
}
