import FeedsPostgres
import FeedsTestSupport
import PostgresNIO
import Testing

/// The pool of prepared reads plans generically; the server's other pool leaves PostgreSQL to choose.
@Suite struct GenericPlansTests {
    func planCacheMode(_ configuration: PostgresClient.Configuration) async throws -> String? {
        try await TestDatabase.withClient(configuration) { client in
            for try await mode in try await client.query("SHOW plan_cache_mode", logger: TestDatabase.logger)
                .decode(String.self)
            {
                return mode
            }
            return nil
        }
    }

    @Test func theGenericPoolPlansGenericallyAndTheOtherLeavesItToPostgreSQL() async throws {
        let configuration = try TestDatabase.serverConfiguration()
        #expect(try await planCacheMode(configuration.generic) == "force_generic_plan")
        #expect(try await planCacheMode(configuration) == "auto")
    }
}
