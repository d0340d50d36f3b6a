import FeedsPostgres
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

@Suite struct EmbeddedPostgresTests {
    @Test func startsRestartsAndKeepsItsData() async throws {
        // Under /tmp, which the postgres user can reach when the tests run as root.
        let directory = URL(fileURLWithPath: "/tmp/feeds-embedded-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let logger = TestDatabase.logger

        let first = try await EmbeddedPostgres.start(in: directory, durable: false, logger: logger)
        #expect(first.startedHere)
        try await TestDatabase.withClient(first.configuration) { client in
            _ = try await client.query("CREATE TABLE kept (note text)", logger: logger)
            _ = try await client.query("INSERT INTO kept VALUES ('still here')", logger: logger)
        }
        try await first.stop()

        // Stopped: the next start finds no server running and starts one on the same data.
        let second = try await EmbeddedPostgres.start(in: directory, durable: false, logger: logger)
        #expect(second.startedHere)
        let note = try await TestDatabase.withClient(second.configuration) { client in
            var notes: [String] = []
            for try await note in try await client.query("SELECT note FROM kept", logger: logger).decode(String.self) {
                notes.append(note)
            }
            return notes
        }
        #expect(note == ["still here"])

        // A second start while it runs joins the running server rather than starting another.
        let joined = try await EmbeddedPostgres.start(in: directory, durable: false, logger: logger)
        #expect(!joined.startedHere)
        #expect(joined.configuration.port == second.configuration.port)
        try await joined.stop()  // not started by it: leaves the server running
        try await TestDatabase.withClient(second.configuration) { client in
            _ = try await client.query("SELECT 1", logger: logger)
        }
        try await second.stop()
    }
}
