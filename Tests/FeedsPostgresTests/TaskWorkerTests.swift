import FeedsCore
import FeedsPostgres
import FeedsTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

/// The task worker on a real database: progress saved step by step, a task whose holder died
/// taken over from its last saved step, and a step that keeps failing failing its task with the
/// step's error for GetTask to show.
@Suite struct TaskWorkerTests {
    /// Counts `result.n` up to 5, one a step; throws `failure` instead when one is set.
    struct Counter: TaskHandler {
        var failure: FeedsError?

        func step(_ task: inout PostgresTasks.Claimed, logger: Logger) async throws -> Bool {
            if let failure { throw failure }
            guard case .number(let n)? = task.result["n"] else { throw FeedsError.input("no n") }
            task.result["n"] = .number(n + 1)
            return n + 1 >= 5
        }
    }

    func worker(_ client: PostgresClient, _ handler: Counter) -> TaskWorker {
        var options = TaskWorker.Options()
        (options.poll, options.attempts, options.retryAfter) = (.milliseconds(20), 3, .zero)
        return TaskWorker(
            tasks: PostgresTasks(client: client), handlers: ["count": handler], options: options, logger: TestDatabase.logger)
    }

    /// Runs `worker` until `done` holds of the task's row (status, result, error, attempts).
    func run(_ worker: TaskWorker, _ client: PostgresClient, until done: @escaping @Sendable (String, String, String?, Int) -> Bool)
        async throws -> (String, String, String?, Int)
    {
        let running = Task { try await worker.run() }
        defer { running.cancel() }
        try await eventually("the task settled") {
            try await row(client).map { done($0.0, $0.1, $0.2, $0.3) } ?? false
        }
        return try #require(try await row(client))
    }

    func row(_ client: PostgresClient) async throws -> (String, String, String?, Int)? {
        let rows = try await client.query(
            "SELECT status, result::text, error::text, attempts FROM tasks", logger: TestDatabase.logger)
        for try await row in rows.decode((String, String, String?, Int).self) { return row }
        return nil
    }

    @Test func aTaskWhoseHolderDiedGoesOnFromItsLastSavedStep() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            // Held by a node that stopped after two steps: its hold ran out.
            try await client.query(
                """
                INSERT INTO tasks (id, kind, status, result, held_by, held_until)
                VALUES (gen_random_uuid(), 'count', 'running', '{"n": 2}', 'gone', now() - interval '1 second')
                """, logger: TestDatabase.logger)
            let (status, result, error, _) = try await run(worker(client, Counter()), client) { status, _, _, _ in
                status == "completed"
            }
            #expect(status == "completed" && error == nil)
            #expect(try JSONDecoder().decode([String: Int].self, from: Data(result.utf8)) == ["n": 5])
        }
    }

    @Test func aTaskHeldByALiveNodeIsLeftAlone() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            try await client.query(
                """
                INSERT INTO tasks (id, kind, status, result, held_by, held_until)
                VALUES (gen_random_uuid(), 'count', 'running', '{"n": 2}', 'alive', now() + interval '1 hour');
                """, logger: TestDatabase.logger)
            try await client.query(
                """
                INSERT INTO tasks (id, kind, status, result, created_at)
                VALUES (gen_random_uuid(), 'count', 'pending', '{"n": 0}', now() + interval '1 second')
                """, logger: TestDatabase.logger)
            let worker = worker(client, Counter())
            let running = Task { try await worker.run() }
            defer { running.cancel() }
            // The newer task is done while the held one stays as it was.
            try await eventually("the free task done") {
                let rows = try await client.query(
                    "SELECT count(*)::int FROM tasks WHERE status = 'completed'", logger: TestDatabase.logger)
                for try await n in rows.decode(Int.self) { return n == 1 }
                return false
            }
            let held = try await client.query(
                "SELECT status, result::text FROM tasks WHERE held_by = 'alive'", logger: TestDatabase.logger)
            for try await (status, result) in held.decode((String, String).self) {
                #expect(status == "running" && result == #"{"n": 2}"#)
            }
        }
    }

    @Test func aStepThatKeepsFailingFailsTheTaskWithItsError() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            try await client.query(
                "INSERT INTO tasks (id, kind, status, result) VALUES (gen_random_uuid(), 'count', 'pending', '{\"n\": 0}')",
                logger: TestDatabase.logger)
            let failing = Counter(failure: FeedsError.input("the user's feed is locked"))
            let (_, _, error, attempts) = try await run(worker(client, failing), client) { status, _, _, _ in status == "failed" }
            let failure = try JSONDecoder().decode(BackgroundTask.Failure.self, from: Data(try #require(error).utf8))
            #expect(failure == .init(type: "input", description: "the user's feed is locked"))
            #expect(attempts == 2, "two tries waited; the third failed the task")
        }
    }

    @Test func aTaskOfAKindNoWorkerRunsFails() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            try await client.query(
                "INSERT INTO tasks (id, kind, status) VALUES (gen_random_uuid(), 'unknown', 'pending')", logger: TestDatabase.logger)
            let (_, _, error, _) = try await run(worker(client, Counter()), client) { status, _, _, _ in status == "failed" }
            #expect(error?.contains("no worker runs unknown tasks") == true, "\(error ?? "")")
        }
    }
}
