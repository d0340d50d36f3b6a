import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `ObjectStore` on PostgreSQL: the `cdn_objects` table.
public struct PostgresObjectStore: ObjectStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func reserve(_ objects: [ObjectRecord], logger: Logger) async throws {
        guard !objects.isEmpty else { return }
        try await client.transaction(logger: logger) { connection in
            for object in objects {
                try await connection.query(
                    """
                    INSERT INTO cdn_objects (key, kind, owner_id, file_name, mime_type, size, sha256, width, height, state)
                    VALUES (\(object.key.rawValue), \(object.kind.rawValue), \(object.ownerID), \(object.fileName),
                            \(object.mimeType), \(object.size), \(object.sha256), \(object.width), \(object.height), 'pending')
                    """,
                    logger: logger
                )
            }
        }
    }

    public func markUploaded(_ keys: [ObjectKey], logger: Logger) async throws {
        try await client.query(
            """
            UPDATE cdn_objects SET state = 'uploaded', updated_at = now()
            WHERE key = ANY(\(keys.map(\.rawValue))) AND state = 'pending'
            """,
            logger: logger
        )
    }

    public func forget(_ keys: [ObjectKey], logger: Logger) async throws {
        try await client.query(
            "DELETE FROM cdn_objects WHERE key = ANY(\(keys.map(\.rawValue))) AND state IN ('pending', 'uploaded')",
            logger: logger
        )
    }

    public func object(_ key: ObjectKey, logger: Logger) async throws -> ObjectRecord? {
        let rows = try await client.query(
            "SELECT \(unescaped: Self.columns) FROM cdn_objects WHERE key = \(key.rawValue)", logger: logger
        )
        for try await row in rows { return try Self.decode(row) }
        return nil
    }

    public func markDeleted(_ key: ObjectKey, logger: Logger) async throws -> ObjectRecord? {
        // The row as it was: a CTE reads the old state before the update replaces it.
        let rows = try await client.query(
            """
            WITH old AS (SELECT \(unescaped: Self.columns) FROM cdn_objects WHERE key = \(key.rawValue) FOR UPDATE),
                 done AS (UPDATE cdn_objects SET state = 'deleted', updated_at = now() WHERE key = \(key.rawValue))
            SELECT * FROM old
            """,
            logger: logger
        )
        for try await row in rows { return try Self.decode(row) }
        return nil
    }

    public func sweepCandidates(
        pendingTTL: Duration, unattachedTTL: Duration?, limit: Int, logger: Logger
    ) async throws -> [ObjectKey] {
        let pendingSeconds = Double(pendingTTL.components.seconds)
        let unattachedSeconds = unattachedTTL.map { Double($0.components.seconds) }
        let rows = try await client.query(
            """
            SELECT key FROM cdn_objects
            WHERE (state = 'pending' AND updated_at < now() - \(pendingSeconds) * interval '1 second')
               OR (state = 'uploaded' AND \(unattachedSeconds) IS NOT NULL
                   AND updated_at < now() - \(unattachedSeconds) * interval '1 second')
            ORDER BY updated_at LIMIT \(limit)
            """,
            logger: logger
        )
        var keys: [ObjectKey] = []
        for try await raw in rows.decode(String.self) {
            if let key = ObjectKey(rawValue: raw) { keys.append(key) }
        }
        return keys
    }

    public func exclusively(logger: Logger, _ body: @Sendable () async throws -> Void) async throws -> Bool {
        // A session lock on one pooled connection: released by unlock, or by Postgres if the node dies.
        try await client.withConnection { connection in
            var locked = false
            for try await granted in try await connection.query(
                "SELECT pg_try_advisory_lock(\(Self.sweepLockKey))", logger: logger
            ).decode(Bool.self) {
                locked = granted
            }
            guard locked else { return false }
            do {
                try await body()
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.sweepLockKey))", logger: logger)
                throw error
            }
            _ = try await connection.query("SELECT pg_advisory_unlock(\(Self.sweepLockKey))", logger: logger)
            return true
        }
    }

    /// Any 64-bit number no other part of the system locks on.
    static let sweepLockKey: Int64 = 0x6665_6564_735f_6763  // "feeds_gc"

    static let columns = "key, kind, owner_id, file_name, mime_type, size, sha256, width, height, state"

    static func decode(_ row: PostgresRow) throws -> ObjectRecord? {
        let c = try row.decode((String, String, String?, String, String, Int64, String, Int?, Int?, String).self)
        guard let key = ObjectKey(rawValue: c.0), let kind = ObjectRecord.Kind(rawValue: c.1),
            let state = ObjectRecord.State(rawValue: c.9)
        else { return nil }
        return ObjectRecord(
            key: key, kind: kind, ownerID: c.2, fileName: c.3, mimeType: c.4, size: c.5, sha256: c.6, width: c.7,
            height: c.8, state: state
        )
    }
}
