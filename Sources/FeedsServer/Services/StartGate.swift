import ServiceLifecycle
import Synchronization

/// Opens once, when the schema is migrated. The background services (the settings listener, the
/// sweeper) start behind it: on a fresh database their first queries would otherwise run before
/// the tables exist, and fail.
final class StartGate: Sendable {
    private struct State {
        var open = false
        var next = 0
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    }
    private let state = Mutex(State())

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in waiters.values { waiter.resume(returning: true) }
    }

    /// True once open; false if the task is cancelled first.
    func wait() async -> Bool {
        let id = state.withLock { state -> Int? in
            if state.open { return nil }
            state.next += 1
            return state.next
        }
        guard let id else { return true }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: Bool? = state.withLock { state in
                    if state.open { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: false)
        }
    }
}

/// Runs `service` once `gate` opens; ends without running it when shut down first.
struct AfterGate: Service {
    let gate: StartGate
    let service: any Service

    func run() async throws {
        guard await cancelWhenGracefulShutdown({ await gate.wait() }) else { return }
        try await service.run()
    }
}
