import Logging
import PostgresNIO

/// Applies migrations in name order, each in a transaction, under a Postgres advisory lock, so
/// that nodes starting together apply each file exactly once.
public struct Migrator: Sendable {
    /// Any 64-bit number that no other part of the system locks on.
    static let advisoryLockKey: Int64 = 0x6665_6564_735f_6d67  // "feeds_mg"

    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    /// Applies what is not applied yet; returns the names applied now.
    @discardableResult
    public func migrate(_ migrations: [Migration], logger: Logger) async throws -> [String] {
        try await client.withConnection { connection in
            // Waiting for another node's migration, and a migration itself, may take longer than the
            // statement timeout requests run under: this session has none until it goes back to the pool.
            _ = try await connection.query("SET statement_timeout = 0", logger: logger)
            _ = try await connection.query("SELECT pg_advisory_lock(\(Self.advisoryLockKey))", logger: logger)
            do {
                let applied = try await Self.prepare(connection, migrations: migrations, logger: logger)
                try await Self.unlock(connection, logger: logger)
                _ = try await connection.query("RESET statement_timeout", logger: logger)
                return applied
            } catch {
                try? await Self.unlock(connection, logger: logger)
                _ = try? await connection.query("RESET statement_timeout", logger: logger)
                throw error
            }
        }
    }

    /// The names of migrations not applied yet (for readiness).
    public func pending(_ migrations: [Migration], logger: Logger) async throws -> [String] {
        var applied = Set<String>()
        for try await exists in try await client.query(
            "SELECT to_regclass('schema_migrations') IS NOT NULL", logger: logger
        ).decode(Bool.self) where exists {
            for try await name in try await client.query("SELECT name FROM schema_migrations", logger: logger).decode(String.self)
            {
                applied.insert(name)
            }
        }
        return migrations.map(\.name).filter { !applied.contains($0) }
    }

    private static func prepare(_ connection: PostgresConnection, migrations: [Migration], logger: Logger) async throws
        -> [String]
    {
        _ = try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name text PRIMARY KEY,
                checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            logger: logger
        )
        var checksums: [String: String] = [:]
        for try await (name, checksum) in try await connection.query(
            "SELECT name, checksum FROM schema_migrations", logger: logger
        ).decode((String, String).self) {
            checksums[name] = checksum
        }
        var appliedNow: [String] = []
        for migration in migrations {
            if let checksum = checksums[migration.name] {
                guard checksum == migration.checksum else {
                    throw MigrationError.checksumMismatch(name: migration.name, applied: checksum, now: migration.checksum)
                }
                continue
            }
            try await connection.withTransaction(logger: logger) { connection in
                for statement in migration.statements {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                _ = try await connection.query(
                    "INSERT INTO schema_migrations (name, checksum) VALUES (\(migration.name), \(migration.checksum))",
                    logger: logger
                )
            }
            logger.info("applied migration", metadata: ["migration": "\(migration.name)"])
            appliedNow.append(migration.name)
        }
        return appliedNow
    }

    private static func unlock(_ connection: PostgresConnection, logger: Logger) async throws {
        _ = try await connection.query("SELECT pg_advisory_unlock(\(advisoryLockKey))", logger: logger)
    }
}
