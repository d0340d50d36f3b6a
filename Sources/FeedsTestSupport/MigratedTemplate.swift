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

    /// The template's name, built on first use in this process.
    func name(_ admin: PostgresClient.Configuration) async throws -> String {
        if let building, let name = try? await building.value { return name }
        let task = Task { try await Self.build(admin) }
        building = task
        return try await task.value
    }

    private static func build(_ admin: PostgresClient.Configuration) async throws -> String {
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
            // every copy of it fail ("being accessed by other users").
            _ = try await client.query("VACUUM ANALYZE", logger: logger)
        }
        try await TestDatabase.withClient(admin) { client in
            _ = try await client.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \(draft) RENAME TO \(name)"), logger: logger)
            // No connections to it, then: autovacuum visits such a database only against wraparound.
            _ = try await client.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \(name) WITH ALLOW_CONNECTIONS false"), logger: logger)
        }
        return name
    }
}
