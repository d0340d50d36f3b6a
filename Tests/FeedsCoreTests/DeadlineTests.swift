import FeedsCore
import Synchronization
import Testing

/// `withDeadline` answers its caller whatever the work does: in time, at the deadline, or at once
/// when the caller is cancelled.
@Suite struct DeadlineTests {
    /// Work that never ends and ignores cancellation, like a wait for a connection to a server
    /// that stopped: a cancelled caller is answered all the same, and not only at the deadline.
    @Test func aCancelledCallerIsAnsweredAtOnceWhateverTheWorkDoes() async throws {
        let started = Atomic(false)
        let caller = Task {
            try await withDeadline(.seconds(86_400), orThrow: { TimedOut() }) {
                started.store(true, ordering: .relaxed)
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }  // never resumed
            }
        }
        while !started.load(ordering: .relaxed) { await Task.yield() }
        caller.cancel()
        let outcome = await caller.result
        #expect(throws: CancellationError.self) { try outcome.get() }
    }

    @Test func aCallerCancelledBeforeItStartsIsAnsweredAtOnce() async throws {
        let ran = Atomic(false)
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await withDeadline(.seconds(86_400), orThrow: { TimedOut() }) { ran.store(true, ordering: .relaxed) }
        }
        let outcome = await caller.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
    }

    @Test func workThatEndsInTimeAnswers() async throws {
        #expect(try await withDeadline(.seconds(86_400), orThrow: { TimedOut() }) { 42 } == 42)
    }

    struct TimedOut: Error {}
}
