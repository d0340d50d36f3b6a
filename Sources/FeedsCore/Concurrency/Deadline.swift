import Synchronization

/// Runs `operation`, and throws `timedOut()` once `limit` has passed without it. The operation
/// is cancelled then, but not waited for: a database or store that hangs may not heed
/// cancellation, and the caller must be answered all the same. Task-locals (the request scope)
/// go along.
public func withDeadline<T: Sendable>(
    _ limit: Duration, orThrow timedOut: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
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
        race.cancelAll()
    }
}

/// Whichever of the work and the timer ends first answers; the other is cancelled.
private final class DeadlineRace<T: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<T, any Error>?, tasks: [Task<Void, Never>])>((nil, []))

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func track(work: Task<Void, Never>, timer: Task<Void, Never>) {
        let answered = state.withLock { state in
            state.tasks = [work, timer]
            return state.continuation == nil
        }
        if answered { cancelAll() }
    }

    func finish(with result: Result<T, any Error>) {
        let (continuation, tasks) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        guard let continuation else { return }
        for task in tasks { task.cancel() }
        continuation.resume(with: result)
    }

    func cancelAll() {
        for task in state.withLock({ $0.tasks }) { task.cancel() }
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
