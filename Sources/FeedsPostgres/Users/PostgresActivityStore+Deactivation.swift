import FeedsCore
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// DeactivateUser(s) and ReactivateUser(s): `users.deactivated_at`, announced on
/// `deactivationChannel` in the same transaction, so that every node's `DeactivatedUsers` hears
/// of it once it is committed (`DeactivatedUsersListener`).
extension PostgresActivityStore {
    public static let deactivationChannel = "feeds_user_deactivations"

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
            try await connection.query("SELECT pg_notify(\(Self.deactivationChannel), '')", logger: logger)
            let users = ids.compactMap { found[$0] }
            guard recordTask else { return (users, nil) }
            let task = try await Self.recordTask(
                deactivated ? "deactivate-users" : "reactivate-users",
                result: ["user_ids": .array(users.map { .string($0.user.id) })], on: connection, logger: logger)
            return (users, task)
        }
    }

    /// Every deactivated user's id.
    public func deactivatedUserIDs(logger: Logger) async throws -> Set<String> {
        var ids = Set<String>()
        for try await id in try await client.query(
            "SELECT id FROM users WHERE deactivated_at IS NOT NULL", logger: logger
        ).decode(String.self) {
            ids.insert(id)
        }
        return ids
    }
}

/// Keeps this node's `DeactivatedUsers` current (`ReloadOnNotify`); `newlyDeactivated` hears of
/// those deactivated since the last reload (this node closes their sockets).
public struct DeactivatedUsersListener: Service {
    let store: PostgresActivityStore
    let users: DeactivatedUsers
    let refreshInterval: Duration
    let logger: Logger
    let newlyDeactivated: @Sendable (Set<String>) -> Void

    public init(
        store: PostgresActivityStore, users: DeactivatedUsers, refreshInterval: Duration = .seconds(30), logger: Logger,
        newlyDeactivated: @escaping @Sendable (Set<String>) -> Void
    ) {
        (self.store, self.users, self.refreshInterval, self.logger) = (store, users, refreshInterval, logger)
        self.newlyDeactivated = newlyDeactivated
    }

    public func run() async throws {
        await ReloadOnNotify(
            client: store.client, channel: PostgresActivityStore.deactivationChannel, refreshInterval: refreshInterval,
            logger: logger
        ) { reason in
            do {
                let added = users.replace(with: try await store.deactivatedUserIDs(logger: logger))
                if !added.isEmpty { newlyDeactivated(added) }
            } catch {
                logger.warning("cannot reload the deactivated users", metadata: ["reason": "\(reason)", "error": "\(error)"])
            }
        }.run()
    }
}
