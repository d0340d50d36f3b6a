import FeedsCore
import FeedsTestSupport
import PostgresNIO
import Testing

@testable import FeedsPostgres

/// The fan-out queue without a server: a worker that claimed a job and died leaves it whole to
/// the next, and copies are never doubled.
@Suite struct FanoutTests {
    @Test func aJobWhoseWorkerDiedIsDoneByTheNextOnce() async throws {
        try await TestDatabase.with(migrated: true) { configuration, client in
            for statement in [
                "INSERT INTO users (id) VALUES ('star')",
                "INSERT INTO feeds (fid, group_id, feed_id, created_by) VALUES ('user:star', 'user', 'star', 'star')",
            ] + FanoutFixture.fans(12_000, of: "user:star") + [
                "INSERT INTO activities (id, type, user_id, feeds) VALUES ('a1', 'post', 'star', '{user:star}')",
                "INSERT INTO activity_feeds (feed, created_at, activity_id) SELECT 'user:star', created_at, id FROM activities",
                "INSERT INTO fanout_jobs (kind, activity_id, feeds) VALUES ('post', 'a1', '{user:star}')",
                // Copies a worker made before: the next must not double them.
                """
                INSERT INTO activity_feeds (feed, created_at, activity_id, via)
                SELECT 'timeline:fan' || n, a.created_at, a.id, 'user:star' FROM activities a, generate_series(1, 100) n
                """,
            ] {
                _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: TestDatabase.logger)
            }

            // A worker claims the job, copies a chunk, and its session dies before it commits.
            let dying = PostgresClient(configuration: configuration, backgroundLogger: TestDatabase.logger)
            let pid = try await hangGuard("the dying worker's claim", seconds: 120) {
                try await withThrowingTaskGroup(of: Int32?.self) { group in
                    group.addTask {
                        await dying.run(); return nil
                    }
                    let pid: Int32 = try await dying.withConnection { connection in
                        _ = try await connection.query("BEGIN", logger: TestDatabase.logger)
                        _ = try await connection.query("SELECT id FROM fanout_jobs FOR UPDATE", logger: TestDatabase.logger)
                        _ = try await connection.query(
                            """
                            INSERT INTO activity_feeds (feed, created_at, activity_id, via)
                            SELECT 'timeline:fan' || n, a.created_at, a.id, 'user:star' FROM activities a, generate_series(101, 5000) n
                            """, logger: TestDatabase.logger)
                        // Locked by the dying worker: another claim skips it.
                        #expect(try await Fanout(client: client).runBatch(logger: TestDatabase.logger) == 0)
                        for try await pid in try await connection.query("SELECT pg_backend_pid()", logger: TestDatabase.logger)
                            .decode(Int32.self)
                        {
                            return pid
                        }
                        return 0
                    }
                    _ = try await client.query("SELECT pg_terminate_backend(\(pid))", logger: TestDatabase.logger)
                    group.cancelAll()
                    return pid
                }
            }
            #expect(pid != 0)

            let fanout = Fanout(client: client)
            try await eventually("the job done by the next worker") {
                try await fanout.runBatch(logger: TestDatabase.logger)
                return try await fanout.pending(logger: TestDatabase.logger) == 0
            }
            let rows = try await client.query(
                "SELECT count(*)::int, count(DISTINCT feed)::int FROM activity_feeds WHERE via = 'user:star'",
                logger: TestDatabase.logger)
            for try await (copies, feeds) in rows.decode((Int, Int).self) {
                #expect(copies == 12_000 && feeds == 12_000)
            }
        }
    }

    /// A job that keeps failing once stalled the 49 claimed with it, and was tried again without
    /// end. Now each job is a transaction of its own: the others finish, and the failing one waits
    /// longer each time and is set aside after `Fanout.maxAttempts` tries, with its error.
    @Test func aFailingJobHoldsNoOtherBackAndIsSetAside() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            let logger = TestDatabase.logger
            var statements =
                [
                    "INSERT INTO users (id) VALUES ('star')",
                    "INSERT INTO feeds (fid, group_id, feed_id, created_by) VALUES ('user:star', 'user', 'star', 'star')",
                ] + FanoutFixture.fans(10, of: "user:star")
            for id in ["a1", "poison", "a2", "a3"] {
                statements += [
                    "INSERT INTO activities (id, type, user_id, feeds) VALUES ('\(id)', 'post', 'star', '{user:star}')",
                    "INSERT INTO fanout_jobs (kind, activity_id, feeds) VALUES ('post', '\(id)', '{user:star}')",
                ]
            }
            // The poisoned job's copies fail, as a corrupt row or a broken constraint would make them.
            statements += [
                """
                CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.activity_id = 'poison' THEN RAISE EXCEPTION 'poisoned copy'; END IF; RETURN NEW; END $$
                """,
                "CREATE TRIGGER poison BEFORE INSERT ON activity_feeds FOR EACH ROW EXECUTE FUNCTION refuse_poison()",
            ]
            for statement in statements { _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger) }

            let fanout = Fanout(client: client)
            try await fanout.runBatch(logger: logger)
            let copies = "SELECT count(*)::int FROM activity_feeds WHERE via = 'user:star'"
            #expect(try await number(copies, client) == 30)
            #expect(try await number("SELECT attempts FROM fanout_jobs WHERE activity_id = 'poison'", client) >= 1)
            // Each try is counted and waits longer; the test moves the wait instead of sleeping.
            for _ in 1...Fanout.maxAttempts {
                _ = try await client.query("UPDATE fanout_jobs SET not_before = now()", logger: logger)
                try await fanout.runBatch(logger: logger)
            }
            #expect(try await fanout.runBatch(logger: logger) == 0)
            #expect(try await fanout.pending(logger: logger) == 0)
            let aside =
                "SELECT count(*)::int FROM fanout_jobs WHERE failed_at IS NOT NULL AND attempts = \(Fanout.maxAttempts)"
                + " AND last_error LIKE '%poisoned copy%'"
            #expect(try await number(aside, client) == 1)
        }
    }

    func number(_ sql: String, _ client: PostgresClient) async throws -> Int {
        for try await value in try await client.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger).decode(Int.self)
        {
            return value
        }
        return -1
    }
}
