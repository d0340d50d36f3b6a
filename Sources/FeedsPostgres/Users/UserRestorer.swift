import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// RestoreUsers' input: each user, and when their account was deleted.
struct UserRestoration: Codable {
    var userIDs: [String]
    var deletedAt: [Date]
}

/// Brings back, after RestoreUsers, what DeleteUsers soft-deleted with an account: the
/// activities and comments of theirs deleted since the account was (a deleted account cannot
/// delete anything itself), activities first, each as RestoreActivity restores it (back in its
/// feeds, counted, fanned out again), then comments (the triggers count them back in). An
/// activity that cannot come back (expired meanwhile) stays deleted and is counted `skipped`.
public struct UserRestorer: TaskHandler {
    public static let kind = "restore-users"

    let store: PostgresActivityStore

    public init(store: PostgresActivityStore) { self.store = store }

    public func step(_ task: inout PostgresTasks.Claimed, logger: Logger) async throws -> Bool {
        let input = try JSONDecoder().decode(UserRestoration.self, from: Data(task.input.utf8))
        var done = Int(task.result.count("users_done"))
        guard done < input.userIDs.count else { return true }
        let (user, since) = (input.userIDs[done], input.deletedAt[done])
        let skipped = Set(task.result.strings("skipped_ids"))

        var ids: [String] = []
        for try await id in try await store.client.query(
            """
            SELECT id FROM activities WHERE user_id = \(user) AND deleted_at >= \(since) AND id <> ALL(\(Array(skipped)))
            ORDER BY id LIMIT 50
            """, logger: logger
        ).decode(String.self) { ids.append(id) }
        var restored = 0
        for id in ids {
            do {
                try await store.restoreActivity(id: id, logger: logger, mayRestore: { _ in true })
                restored += 1
            } catch let error as FeedsError where error.kind == .input {
                task.result["skipped_ids"] = .array((task.result.strings("skipped_ids") + [id]).map(JSONValue.string))
            }
        }
        task.result["restored_activities"] = .number(Double(task.result.count("restored_activities") + restored))
        if !ids.isEmpty { return false }

        let comments = try await store.client.query(
            """
            WITH back AS (
                UPDATE comments SET deleted_at = NULL, updated_at = now()
                WHERE id IN (SELECT id FROM comments WHERE user_id = \(user) AND deleted_at >= \(since) ORDER BY id LIMIT 500)
                RETURNING 1
            ) SELECT count(*)::int FROM back
            """, logger: logger)
        var back = 0
        for try await n in comments.decode(Int.self) { back = n }
        task.result["restored_comments"] = .number(Double(task.result.count("restored_comments") + back))
        if back > 0 { return false }

        done += 1
        task.result["users_done"] = .number(Double(done))
        task.result["skipped_ids"] = nil
        task.result["skipped"] = .number(Double(task.result.count("skipped") + skipped.count))
        return done == input.userIDs.count
    }
}
