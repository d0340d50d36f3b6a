import FeedsCore
import Synchronization

/// A counting semaphore for tasks: `acquire` suspends until a permit is free, in arrival order,
/// and gives up with `CancellationError` when the waiting task is cancelled.
public final class AsyncSemaphore: Sendable {
    private struct State {
        var available: Int
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private enum Admission {
        case granted, cancelled, queued
    }

    private let state: Mutex<State>

    /// A semaphore with `permits` permits, all free.
    public init(permits: Int) {
        precondition(permits > 0, "a semaphore needs at least one permit")
        state = Mutex(State(available: permits))
    }

    /// Takes a permit, waiting for one if none is free; every successful call needs one `release()`.
    public func acquire() async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admission = state.withLock { state -> Admission in
                    // The cancelled flag is set before cancellation handlers run, and both sides take
                    // the lock, so a cancellation that raced ahead of this registration is seen here.
                    if Task.isCancelled { return .cancelled }
                    if state.available > 0 {
                        state.available -= 1
                        return .granted
                    }
                    state.waiters.append((id, continuation))
                    return .queued
                }
                switch admission {
                case .granted: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .queued: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0).continuation }
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Returns a permit, handing it straight to the longest waiter if there is one.
    public func release() {
        let waiter = state.withLock { state in
            if state.waiters.isEmpty {
                state.available += 1
                return CheckedContinuation<Void, any Error>?.none
            }
            return state.waiters.removeFirst().continuation
        }
        waiter?.resume()
    }
}
