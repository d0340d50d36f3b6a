import FeedsPostgres
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

@Suite struct MigratorTests {
    let logger = TestDatabase.logger

    /// A directory of migration files, removed afterwards.
    func withFiles<T>(_ files: [String: String], _ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, sql) in files { try sql.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return try await body(directory)
    }

    static let files = [
        // Named out of order on purpose: 0002 needs 0001's table.
        "0002_b.sql": "CREATE TABLE b (id int REFERENCES a (id)); INSERT INTO a VALUES (1); INSERT INTO b VALUES (1);",
        "0001_a.sql": """
        CREATE TABLE a (id int PRIMARY KEY, note text DEFAULT 'x;y');
        CREATE FUNCTION one() RETURNS int AS $$ BEGIN RETURN 1; END; $$ LANGUAGE plpgsql;
        """,
        "README.txt": "not a migration",
    ]

    @Test func appliesFilesInNameOrderOnceEach() async throws {
        try await withFiles(Self.files) { directory in
            let migrations = try Migration.load(from: directory)
            #expect(migrations.map(\.name) == ["0001_a.sql", "0002_b.sql"])
            try await TestDatabase.with { _, client in
                let migrator = Migrator(client: client)
                #expect(try await migrator.pending(migrations, logger: logger) == ["0001_a.sql", "0002_b.sql"])
                #expect(try await migrator.migrate(migrations, logger: logger) == ["0001_a.sql", "0002_b.sql"])
                #expect(try await migrator.migrate(migrations, logger: logger) == [])
                #expect(try await migrator.pending(migrations, logger: logger) == [])
                let rows = try await client.query("SELECT one(), (SELECT count(*) FROM b)", logger: logger)
                for try await (one, count) in rows.decode((Int, Int).self) {
                    #expect(one == 1)
                    #expect(count == 1)
                }
            }
        }
    }

    @Test func refusesAnAppliedFileThatChanged() async throws {
        try await withFiles(Self.files) { directory in
            try await TestDatabase.with { _, client in
                let migrator = Migrator(client: client)
                try await migrator.migrate(try Migration.load(from: directory), logger: logger)
                try "CREATE TABLE a (id bigint PRIMARY KEY);".write(
                    to: directory.appendingPathComponent("0001_a.sql"), atomically: true, encoding: .utf8
                )
                let changed = try Migration.load(from: directory)
                let error = await #expect(throws: MigrationError.self) {
                    try await migrator.migrate(changed, logger: logger)
                }
                guard case .checksumMismatch(let name, _, _) = error else {
                    Issue.record("expected a checksum mismatch, got \(String(describing: error))")
                    return
                }
                #expect(name == "0001_a.sql")
                #expect(error?.description.contains("0001_a.sql") == true)
            }
        }
    }

    @Test func aFailingFileLeavesNothingOfItselfBehind() async throws {
        let files = [
            "0001_ok.sql": "CREATE TABLE ok (id int);", "0002_bad.sql": "CREATE TABLE half (id int); SELECT nonsense();",
        ]
        try await withFiles(files) { directory in
            try await TestDatabase.with { _, client in
                let migrations = try Migration.load(from: directory)
                await #expect(throws: (any Error).self) { try await Migrator(client: client).migrate(migrations, logger: logger) }
                let rows = try await client.query(
                    "SELECT to_regclass('ok') IS NOT NULL, to_regclass('half') IS NOT NULL, (SELECT count(*) FROM schema_migrations)",
                    logger: logger
                )
                for try await (ok, half, applied) in rows.decode((Bool, Bool, Int).self) {
                    #expect(ok)
                    #expect(!half)
                    #expect(applied == 1)
                }
            }
        }
    }

    @Test func concurrentMigratorsApplyEachFileOnce() async throws {
        try await withFiles(Self.files) { directory in
            let migrations = try Migration.load(from: directory)
            try await TestDatabase.with { configuration, client in
                let applied = try await withThrowingTaskGroup(of: [String].self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            try await TestDatabase.withClient(configuration) { own in
                                try await Migrator(client: own).migrate(migrations, logger: logger)
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                #expect(applied.sorted() == ["0001_a.sql", "0002_b.sql"])
                let rows = try await client.query("SELECT count(*) FROM schema_migrations", logger: logger)
                for try await count in rows.decode(Int.self) { #expect(count == 2) }
            }
        }
    }

    @Test func theShippedMigrationsApplyToAnEmptyDatabase() async throws {
        try await TestDatabase.with { _, client in
            let migrations = try Migration.bundled()
            #expect(migrations.first?.name == "0001_init.sql")
            try await Migrator(client: client).migrate(migrations, logger: logger)
            let rows = try await client.query("SELECT to_regclass('activity_feeds') IS NOT NULL", logger: logger)
            for try await exists in rows.decode(Bool.self) { #expect(exists) }
        }
    }
}
