import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `IdempotencyStore` on PostgreSQL: the `idempotency_keys` table.
public struct PostgresIdempotencyStore: IdempotencyStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func claim(principal: String, key: String, requestHash: String, lease: Duration, logger: Logger) async throws
        -> IdempotencyClaim
    {
        let seconds = Double(lease.components.seconds)
        // One statement claims a new key, one whose 24 hours are over, or an unfinished one whose
        // lease is over (its request died); a live key is left as it is.
        let claimed = try await client.committed(logger: logger) { connection in
            let rows = try await connection.query(
                """
                INSERT INTO idempotency_keys (principal, key, request_hash, lease_until)
                VALUES (\(principal), \(key), \(requestHash), now() + \(seconds) * interval '1 second')
                ON CONFLICT (principal, key) DO UPDATE
                    SET request_hash = EXCLUDED.request_hash, status = NULL, response = NULL, created_at = now(),
                        lease_until = EXCLUDED.lease_until
                    WHERE idempotency_keys.created_at < now() - interval '24 hours'
                       OR (idempotency_keys.status IS NULL AND idempotency_keys.lease_until < now()
                           AND idempotency_keys.request_hash = EXCLUDED.request_hash)
                RETURNING true
                """,
                logger: logger
            )
            for try await _ in rows { return true }
            return false
        }
        if claimed { return .claimed }
        let rows = try await client.query(
            "SELECT request_hash, status, response FROM idempotency_keys WHERE principal = \(principal) AND key = \(key)",
            logger: logger
        )
        for try await (hash, status, response) in rows.decode((String, Int?, Data?).self) {
            guard hash == requestHash else { return .mismatch }
            guard let status, let response else { return .inFlight }
            return .replay(status: status, body: Array(response))
        }
        // Released between the two statements: claim again.
        return try await claim(principal: principal, key: key, requestHash: requestHash, lease: lease, logger: logger)
    }

    public func complete(principal: String, key: String, status: Int, body: [UInt8], logger: Logger) async throws {
        try await client.committed(logger: logger) { connection in
            _ = try await connection.query(
                """
                UPDATE idempotency_keys SET status = \(status), response = \(Data(body))
                WHERE principal = \(principal) AND key = \(key) AND status IS NULL
                """,
                logger: logger
            )
        }
    }

    public func release(principal: String, key: String, logger: Logger) async throws {
        try await client.committed(logger: logger) { connection in
            _ = try await connection.query(
                "DELETE FROM idempotency_keys WHERE principal = \(principal) AND key = \(key) AND status IS NULL",
                logger: logger
            )
        }
    }

    public func purgeExpired(logger: Logger) async throws -> Int {
        let rows = try await client.query(
            """
            WITH gone AS (DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours' RETURNING 1)
            SELECT count(*) FROM gone
            """,
            logger: logger
        )
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// Records a claimed key's reply on the write's own connection, inside its transaction.
    static func record<Stored>(
        _ record: IdempotentRecord<Stored>, of stored: Stored, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let body = try record.reply(stored)
        try await connection.query(
            """
            UPDATE idempotency_keys SET status = 201, response = \(Data(body))
            WHERE principal = \(record.principal) AND key = \(record.key) AND status IS NULL
            """,
            logger: logger
        )
    }
}
