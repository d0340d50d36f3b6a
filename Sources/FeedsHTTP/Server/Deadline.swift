import FeedsCore

/// Runs `operation`, and answers `FeedsError(.unavailable)` (503, Retry-After) once `limit` has
/// passed without it; `what` names the work in the message.
func withDeadline<T: Sendable>(
    _ limit: Duration, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withDeadline(
        limit, orThrow: { FeedsError(.unavailable, "\(what) did not finish in \(limit.components.seconds) s; try again") },
        operation)
}
