import Synchronization

/// Runs `work`, but gives up on it after `seconds` with an error naming `what` (and cancels it):
/// a hang guard, not a measurement, so that a test that stops making progress fails with its name
/// instead of holding the whole suite. Work that ignores cancellation is left to itself.
public func hangGuard<T: Sendable>(
    _ what: String, seconds: Int, _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
    let once = Once()
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let running = Task {
            let result = await Result { try await work() }
            if once.claim() { continuation.resume(with: result) }
        }
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            if once.claim() {
                running.cancel()
                continuation.resume(throwing: Hung(what: what, seconds: seconds))
            }
        }
    }
}

/// Checks `condition` every `interval` until it holds; `seconds` is a hang guard, not a measurement.
public func eventually(
    _ what: String, seconds: Int = 120, every interval: Duration = .milliseconds(20),
    _ condition: @escaping @Sendable () async throws -> Bool
) async throws {
    try await hangGuard(what, seconds: seconds) {
        while try await !condition() { try await Task.sleep(for: interval) }
    }
}

/// What a hang guard throws.
public struct Hung: Error, CustomStringConvertible {
    public let what: String
    public let seconds: Int
    public var description: String { "\(what) did not happen within \(seconds) s" }
}

/// True for the first caller only.
private final class Once: Sendable {
    private let claimed = Mutex(false)
    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
