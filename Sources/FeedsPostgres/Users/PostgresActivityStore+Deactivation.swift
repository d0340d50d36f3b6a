import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// DeactivateUser(s) and ReactivateUser(s): `users.deactivated_at`, announced on the app
/// settings' channel in the same transaction, so that every node's `DeactivatedUsers` hears of it
/// once it is committed (`DeactivatedUsersReload`, which `AppSettingsListener` calls).
extension PostgresActivityStore {
    public func setDeactivated(_ ids: [String], _ deactivated: Bool, recordTask: Bool, logger: Logger) async throws
        -> (users: [UserActivation], task: BackgroundTask?)
    {
        try await client.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                UPDATE users SET deactivated_at = CASE WHEN \(deactivated) THEN COALESCE(deactivated_at, now()) END,
                    updated_at = CASE WHEN (deactivated_at IS NULL) = \(deactivated) THEN now() ELSE updated_at END
                WHERE id = ANY(\(ids))
                RETURNING \(unescaped: UserRow.columns), deactivated_at
                """, logger: logger)
            var found: [String: UserActivation] = [:]
            for try await row in rows {
                var columns = RowReader(row)
                let user = try UserRow.user(&columns)
                found[user.id] = UserActivation(user: user, deactivatedAt: try columns.next())
            }
            if let missing = ids.first(where: { found[$0] == nil }) {
                throw FeedsError.notFound("user \(missing) does not exist")
            }
            try await connection.query("SELECT pg_notify(\(PostgresAppSettingsStore.channel), 'users')", logger: logger)
            let users = ids.compactMap { found[$0] }
            guard recordTask else { return (users, nil) }
            let task = try await Self.recordTask(
                deactivated ? "deactivate-users" : "reactivate-users",
                result: ["user_ids": .array(users.map { .string($0.user.id) })], on: connection, logger: logger)
            return (users, task)
        }
    }

    /// Every refused user's id: deactivated, or deleted (DeleteUsers).
    public func deactivatedUserIDs(logger: Logger) async throws -> Set<String> {
        var ids = Set<String>()
        for try await id in try await client.query(
            "SELECT id FROM users WHERE deactivated_at IS NOT NULL UNION ALL SELECT id FROM users WHERE deleted_at IS NOT NULL",
            logger: logger
        ).decode(String.self) {
            ids.insert(id)
        }
        return ids
    }
}

/// Reloads this node's `DeactivatedUsers`; `newlyDeactivated` hears of those deactivated since
/// the last reload (this node closes their sockets). `AppSettingsListener` calls it on the
/// settings' notifications: one listening connection for both (a pool may have two).
public struct DeactivatedUsersReload: Sendable {
    let store: PostgresActivityStore
    let users: DeactivatedUsers
    let logger: Logger
    let newlyDeactivated: @Sendable (Set<String>) -> Void

    public init(
        store: PostgresActivityStore, users: DeactivatedUsers, logger: Logger,
        newlyDeactivated: @escaping @Sendable (Set<String>) -> Void
    ) {
        (self.store, self.users, self.logger, self.newlyDeactivated) = (store, users, logger, newlyDeactivated)
    }

    public func callAsFunction(_ reason: String) async {
        do {
            let added = users.replace(with: try await store.deactivatedUserIDs(logger: logger))
            if !added.isEmpty { newlyDeactivated(added) }
        } catch {
            logger.warning("cannot reload the deactivated users", metadata: ["reason": "\(reason)", "error": "\(error)"])
        }
    }
}
