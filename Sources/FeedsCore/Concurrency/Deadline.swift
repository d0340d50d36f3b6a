import Synchronization

/// Runs `operation`, and throws `timedOut()` once `limit` has passed without it. The operation
/// is cancelled then, but not waited for: a database or store that hangs may not heed
/// cancellation, and the caller must be answered all the same. A caller cancelled meanwhile is
/// answered at once (`CancellationError`), for the same reason. Task-locals (the request scope)
/// go along.
public func withDeadline<T: Sendable>(
    _ limit: Duration, orThrow timedOut: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            guard race.start(continuation) else { return }
            let work = Task {
                let result: Result<T, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                race.finish(with: result)
            }
            let timer = Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                race.finish(with: .failure(timedOut()))
            }
            race.track(work: work, timer: timer)
        }
    } onCancel: {
        race.finish(with: .failure(CancellationError()))
    }
}

/// Whichever of the work, the timer and the caller's cancellation comes first answers; the
/// others are cancelled.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var tasks: [Task<Void, Never>] = []
        /// Answered already (a cancellation may come before the continuation does).
        var answered = false
    }
    private let state = Mutex(State())

    /// False when the caller was answered before this (cancelled): nothing is to start.
    func start(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        let answered = state.withLock { state in
            if !state.answered { state.continuation = continuation }
            return state.answered
        }
        if answered { continuation.resume(throwing: CancellationError()) }
        return !answered
    }

    func track(work: Task<Void, Never>, timer: Task<Void, Never>) {
        let answered = state.withLock { state in
            state.tasks = [work, timer]
            return state.answered
        }
        if answered { for task in [work, timer] { task.cancel() } }
    }

    func finish(with result: Result<T, any Error>) {
        let (continuation, tasks) = state.withLock { state in
            defer { (state.continuation, state.answered) = (nil, true) }
            return state.answered ? (nil, []) : (state.continuation, state.tasks)
        }
        for task in tasks { task.cancel() }
        continuation?.resume(with: result)
    }
}

/// Runs `operation`, and answers `FeedsError(.unavailable)` (503, Retry-After) once `limit` has
/// passed without it; `what` names the work in the message.
package func withDeadline<T: Sendable>(
    _ limit: Duration, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withDeadline(
        limit, orThrow: { FeedsError(.unavailable, "\(what) did not finish in \(limit.components.seconds) s; try again") },
        operation)
}
