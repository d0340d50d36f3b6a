import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `AdminSessionStore` on PostgreSQL: the `admin_sessions` table. Server-side rather than signed
/// cookies, so that sign-out ends a session on every node at once and a stolen cookie dies with it;
/// the table holds only hashes of the tokens.
public struct PostgresAdminSessionStore: AdminSessionStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func create(_ session: AdminSession, tokenHash: String, logger: Logger) async throws {
        try await client.committed(logger: logger) { connection in
            _ = try await connection.query(
                """
                INSERT INTO admin_sessions (token_hash, csrf_token, credential, created_at, seen_at, expires_at)
                VALUES (\(tokenHash), \(session.csrfToken), \(session.credential.rawValue), \(session.createdAt),
                        \(session.seenAt), \(session.expiresAt))
                """,
                logger: logger
            )
        }
    }

    public func session(tokenHash: String, now: Date, idle: TimeInterval, logger: Logger) async throws -> AdminSession? {
        let idleSince = now.addingTimeInterval(-idle)
        // Seen again moves seen_at, at most once a minute: a page view is not worth a write each.
        let rows = try await client.query(
            """
            WITH live AS (
                SELECT * FROM admin_sessions
                WHERE token_hash = \(tokenHash) AND expires_at > \(now) AND seen_at > \(idleSince)
            ), touched AS (
                UPDATE admin_sessions s SET seen_at = \(now) FROM live
                WHERE s.token_hash = live.token_hash AND live.seen_at < \(now.addingTimeInterval(-60))
            )
            SELECT csrf_token, credential, created_at, seen_at, expires_at FROM live
            """,
            logger: logger
        )
        for try await (csrf, credential, created, seen, expires) in rows.decode((String, String, Date, Date, Date).self) {
            guard let credential = AdminSession.Credential(rawValue: credential) else { return nil }
            return AdminSession(
                csrfToken: csrf, credential: credential, createdAt: created, seenAt: max(seen, now), expiresAt: expires)
        }
        return nil
    }

    public func end(tokenHash: String, now: Date, idle: TimeInterval, logger: Logger) async throws {
        try await client.committed(logger: logger) { connection in
            _ = try await connection.query(
                """
                DELETE FROM admin_sessions
                WHERE token_hash = \(tokenHash) OR expires_at <= \(now) OR seen_at <= \(now.addingTimeInterval(-idle))
                """,
                logger: logger)
        }
    }
}
