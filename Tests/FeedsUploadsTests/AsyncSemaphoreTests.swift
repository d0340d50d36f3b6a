import FeedsCore
import Testing

@testable import FeedsUploads

@Suite struct AsyncSemaphoreTests {
    @Test func waitersAreServedInArrivalOrder() async throws {
        let semaphore = AsyncSemaphore(permits: 1)
        try await semaphore.acquire()
        let arrivals = Arrivals()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for waiter in 0..<3 {
                group.addTask {
                    try await semaphore.acquire()
                    await arrivals.record(waiter)
                    semaphore.release()
                }
                // Each waiter queues before the next one is started.
                try await Task.sleep(for: .milliseconds(5))
            }
            semaphore.release()
            try await group.waitForAll()
        }
        #expect(await arrivals.order == [0, 1, 2])
    }

    @Test func anAlreadyCancelledTaskGetsNoPermit() async throws {
        let semaphore = AsyncSemaphore(permits: 1)
        let outcome = await withTaskGroup(of: Bool.self) { group in
            group.cancelAll()
            group.addTask { (try? await semaphore.acquire()) != nil }
            return await group.next()!
        }
        #expect(outcome == false)
        try await semaphore.acquire()
        semaphore.release()
    }
}

/// The order in which waiters got their permit.
actor Arrivals {
    private(set) var order: [Int] = []

    func record(_ waiter: Int) { order.append(waiter) }
}
