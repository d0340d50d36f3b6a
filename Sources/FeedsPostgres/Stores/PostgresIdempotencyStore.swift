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

    public func claim(principal: String, key: String, requestHash: String, logger: Logger) async throws -> IdempotencyClaim {
        // One statement claims a new key, or one whose 24 hours are over; a live key is left as it is.
        let claimed = try await client.query(
            """
            INSERT INTO idempotency_keys (principal, key, request_hash) VALUES (\(principal), \(key), \(requestHash))
            ON CONFLICT (principal, key) DO UPDATE
                SET request_hash = EXCLUDED.request_hash, status = NULL, response = NULL, created_at = now()
                WHERE idempotency_keys.created_at < now() - interval '24 hours'
            RETURNING true
            """,
            logger: logger
        )
        for try await _ in claimed { return .claimed }
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
        return try await claim(principal: principal, key: key, requestHash: requestHash, logger: logger)
    }

    public func complete(principal: String, key: String, status: Int, body: [UInt8], logger: Logger) async throws {
        try await client.query(
            """
            UPDATE idempotency_keys SET status = \(status), response = \(Data(body))
            WHERE principal = \(principal) AND key = \(key)
            """,
            logger: logger
        )
    }

    public func release(principal: String, key: String, logger: Logger) async throws {
        try await client.query(
            "DELETE FROM idempotency_keys WHERE principal = \(principal) AND key = \(key) AND status IS NULL",
            logger: logger
        )
    }
}
