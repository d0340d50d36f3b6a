import FeedsTestSupport
import PostgresNIO
import Synchronization
import Testing

@testable import FeedsPostgres

/// A deadlock PostgreSQL breaks by failing one side is run again, not answered as an error.
@Suite struct ConflictRetryTests {
    /// Opens once, and stays open for every later wait (a retried transaction passes at once).
    final class Latch: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        func wait() async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    if !state.open { state.waiters.append(continuation) }
                    return state.open
                }
                if ready { continuation.resume() }
            }
        }
    }

    final class Runs: Sendable {
        let count = Mutex(0)
    }

    @Test func twoTransactionsThatDeadlockBothCommit() async throws {
        try await TestDatabase.with { _, client in
            let logger = TestDatabase.logger
            _ = try await client.query("CREATE TABLE pair (id int PRIMARY KEY, n int NOT NULL DEFAULT 0)", logger: logger)
            _ = try await client.query("INSERT INTO pair (id) VALUES (1), (2)", logger: logger)
            let runs = Runs()
            let (first, second) = (Latch(), Latch())
            // Each locks one row, waits until the other has locked its own, then takes the other's:
            // a deadlock, which PostgreSQL breaks by failing one of them.
            @Sendable func cross(_ mine: Int, _ theirs: Int, locked: Latch, other: Latch) async throws {
                try await client.transaction(logger: logger) { connection in
                    runs.count.withLock { $0 += 1 }
                    _ = try await connection.query("UPDATE pair SET n = n + 1 WHERE id = \(mine)", logger: logger)
                    locked.open()
                    await other.wait()
                    _ = try await connection.query("UPDATE pair SET n = n + 1 WHERE id = \(theirs)", logger: logger)
                }
            }
            try await hangGuard("both transactions", seconds: 120) {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await cross(1, 2, locked: first, other: second) }
                    group.addTask { try await cross(2, 1, locked: second, other: first) }
                    try await group.waitForAll()
                }
            }
            // One deadlock at least, each costing its victim a run; on a busy machine the retry
            // may meet the other once more. Both commit once either way.
            #expect(runs.count.withLock { $0 } >= 3)
            for try await total in try await client.query("SELECT sum(n)::int FROM pair", logger: logger).decode(Int.self) {
                #expect(total == 4)
            }
        }
    }
}
