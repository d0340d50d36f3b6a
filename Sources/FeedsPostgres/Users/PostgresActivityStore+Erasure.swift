import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// DeleteUsers, DeleteFeedUserData, RestoreUsers and the exports: the calls' part. The work
/// itself is a task (`UserEraser`, `UserRestorer`, `UserExporter`) queued in the same
/// transaction, so it exists only if the call committed.
extension PostgresActivityStore {
    public func queueErasure(_ erasure: UserErasure, kind: String, logger: Logger) async throws -> BackgroundTask {
        try await client.transaction(logger: logger) { connection in
            let ids = erasure.userIDs
            // Marked first: from the commit on, every node refuses their tokens (`DeactivatedUsers`).
            let rows = try await connection.query(
                """
                UPDATE users SET deleted_at = CASE WHEN \(erasure.account != nil) THEN COALESCE(deleted_at, now()) ELSE deleted_at END
                WHERE id = ANY(\(ids)) RETURNING id
                """, logger: logger)
            var found = Set<String>()
            for try await id in rows.decode(String.self) { found.insert(id) }
            if let missing = ids.first(where: { !found.contains($0) }) {
                throw FeedsError.notFound("user \(missing) does not exist")
            }
            if erasure.account != nil {
                try await connection.query("SELECT pg_notify(\(PostgresAppSettingsStore.channel), 'users')", logger: logger)
            }
            return try await PostgresTasks.insert(
                kind, status: .pending, input: try JSONText.encode(erasure),
                result: ["users_total": .number(Double(ids.count)), "users_done": .number(0)], on: connection, logger: logger)
        }
    }

    public func restoreUsers(_ ids: [String], logger: Logger) async throws -> BackgroundTask {
        try await client.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                "SELECT id, deleted_at FROM users WHERE id = ANY(\(ids)) ORDER BY id FOR UPDATE", logger: logger)
            var since: [String: Date] = [:]
            var found = Set<String>()
            for try await (id, deleted) in rows.decode((String, Date?).self) {
                found.insert(id)
                guard let deleted else { throw FeedsError.input("user \(id) is not deleted", field: "user_ids") }
                since[id] = deleted
            }
            if let missing = ids.first(where: { !found.contains($0) }) {
                throw FeedsError.notFound("user \(missing) does not exist (a hard delete cannot be undone)")
            }
            let busy = try await connection.query(
                """
                SELECT id::text FROM tasks WHERE status IN ('pending', 'running') AND kind = ANY(\(UserEraser.kinds))
                  AND input -> 'userIDs' ?| \(ids) LIMIT 1
                """, logger: logger)
            for try await task in busy.decode(String.self) {
                throw FeedsError.conflict("a deletion of these users is still running (task \(task)); restore them once it is done")
            }
            try await connection.query("UPDATE users SET deleted_at = NULL, updated_at = now() WHERE id = ANY(\(ids))", logger: logger)
            try await connection.query("SELECT pg_notify(\(PostgresAppSettingsStore.channel), 'users')", logger: logger)
            let input = UserRestoration(userIDs: ids, deletedAt: ids.map { since[$0]! })
            return try await PostgresTasks.insert(
                UserRestorer.kind, status: .pending, input: try JSONText.encode(input),
                result: ["users_total": .number(Double(ids.count)), "users_done": .number(0)], on: connection, logger: logger)
        }
    }

    public func queueExport(_ ids: [String], kind: String, logger: Logger) async throws -> BackgroundTask {
        try await client.transaction(logger: logger) { connection in
            var found = Set<String>()
            for try await id in try await connection.query(
                "SELECT id FROM users WHERE id = ANY(\(ids))", logger: logger
            ).decode(String.self) { found.insert(id) }
            if let missing = ids.first(where: { !found.contains($0) }) {
                throw FeedsError.notFound("user \(missing) does not exist")
            }
            return try await PostgresTasks.insert(
                kind, status: .pending, input: try JSONText.encode(UserExport(userIDs: ids)),
                result: ["users_total": .number(Double(ids.count)), "users_done": .number(0)], on: connection, logger: logger)
        }
    }
}
