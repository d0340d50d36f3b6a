import FeedsCore
import FeedsHTTP
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

@testable import FeedsServer

/// The server's two pools open at most `databaseConnections` each, its real-time listener one,
/// and all name themselves in `pg_stat_activity`.
@Suite struct DatabasePoolTests {
    /// The server's connections to its database, by pool name.
    func connections(_ server: TestServer) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let rows = try await server.database.query(
            """
            SELECT application_name, count(*)::int FROM pg_stat_activity
            WHERE datname = current_database() AND application_name LIKE 'feeds%' GROUP BY 1
            """, logger: TestDatabase.logger)
        for try await (name, count) in rows.decode((String, Int).self) { counts[name] = count }
        return counts
    }

    /// How many a pool opens under the burst depends on how the requests land on a busy machine;
    /// the bound and the names do not.
    @Test func eachPoolOpensAtMostTheConnectionsSet() async throws {
        try await TestServer.run(configure: { $0.databaseConnections = 3 }) { server in
            // Forty creates and forty pages at once: each pool would open one connection per
            // request in flight if it could.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    group.addTask { try await server.addActivity(as: "user\(index % 4)") }
                    group.addTask {
                        let page = try await server.api(
                            .POST, "/feeds/feed_groups/user/feeds/user\(index % 4)", as: "user\(index % 4)", json: "{}")
                        #expect(page.status == 201 || page.status == 404, "\(page.text)")
                    }
                }
                try await group.waitForAll()
            }
            let counts = try await connections(server)
            #expect((1...3).contains(counts["feeds"] ?? 0), "\(counts)")
            #expect((1...3).contains(counts["feeds-prepared"] ?? 0), "\(counts)")
            // And one connection of its own for real-time notifications.
            #expect(counts["feeds-listener"] == 1, "\(counts)")
            #expect(counts.count == 3, "\(counts)")
        }
    }

    @Test func theDefaultIsFourConnectionsPerCore() {
        #expect(FeedsConfiguration.defaultDatabaseConnections == 4 * ProcessInfo.processInfo.activeProcessorCount)
        let configuration = FeedsConfiguration(apiKey: "k", apiSecret: TestServer.apiSecret)
        #expect(configuration.databaseConnections == FeedsConfiguration.defaultDatabaseConnections)
    }
}
