import FeedsPostgres
import Foundation
import PostgresNIO

/// A database with every bundled migration applied, which test databases are copied from
/// (`CREATE DATABASE … TEMPLATE`, as SwiftPackageIndex-Server's tests do): a copy takes a few
/// milliseconds, running the migrations for each test took far longer. The server's start-up
/// migration then finds nothing to do, as in production after the first start.
///
/// Named by the migrations' checksums, so a cluster kept between runs reuses it until a
/// migration changes. It is built under another name and renamed when complete: a run cut short
/// leaves no half-migrated template behind.
actor MigratedTemplate {
    static let shared = MigratedTemplate()

    private var building: Task<String, any Error>?

    /// The template's name, built on first use in this process. One build for every caller: a
    /// build that failed once made each waiting test start its own, and all but one of those
    /// failed ("already exists", CI at efbb88e). The build retries instead.
    func name(_ admin: PostgresClient.Configuration) async throws -> String {
        if building == nil { building = Task { try await Self.build(admin) } }
        return try await building!.value
    }

    private static func build(_ admin: PostgresClient.Configuration) async throws -> String {
        for attempt in 1... {
            do {
                return try await buildOnce(admin)
            } catch where attempt < 5 {
                TestDatabase.logger.warning("building the migrated template again", metadata: ["error": "\(error)"])
                try await Task.sleep(for: .milliseconds(200 * attempt))
            }
        }
        fatalError("unreachable")
    }

    private static func buildOnce(_ admin: PostgresClient.Configuration) async throws -> String {
        let migrations = try Migration.bundled()
        let digest = migrations.map(\.checksum).joined().utf8.reduce(UInt64(14_695_981_039_346_656_037)) {
            ($0 ^ UInt64($1)) &* 1_099_511_628_211  // FNV-1a: a short, stable name
        }
        let name = "feeds_template_" + String(digest, radix: 16)
        let logger = TestDatabase.logger
        let exists = try await TestDatabase.withClient(admin) { client in
            try await client.query("SELECT 1 FROM pg_database WHERE datname = \(name)", logger: logger)
                .collect().count == 1
        }
        if exists { return name }
        let draft = name + "_" + UUID().uuidString.prefix(8).lowercased()
        try await TestDatabase.withClient(admin) { client in
            _ = try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(draft)"), logger: logger)
        }
        var configuration = admin
        configuration.database = draft
        _ = try await TestDatabase.withClient(configuration) { client in
            try await Migrator(client: client).migrate(migrations, logger: logger)
            // Nothing left for autovacuum to do here: a worker connected to the template makes
            // every copy of it fail ("being accessed by other users"). Connections are refused
            // once it is complete, so autovacuum visits it only against wraparound.
            _ = try await client.query("VACUUM ANALYZE", logger: logger)
        }
        try await TestDatabase.withClient(admin) { client in
            // A rename needs the draft to itself: the migrations' sessions may still be ending, or
            // autovacuum may have looked in ("being accessed by other users").
            _ = try await client.query(
                PostgresQuery(unsafeSQL: "ALTER DATABASE \(draft) WITH ALLOW_CONNECTIONS false"), logger: logger)
            _ = try await client.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(draft)", logger: logger)
            do {
                _ = try await client.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \(draft) RENAME TO \(name)"), logger: logger)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P04" {
                // Another process (a second test binary on this cluster) made it first.
                _ = try await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(draft)"), logger: logger)
            }
        }
        return name
    }
}
