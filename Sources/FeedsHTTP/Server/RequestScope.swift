import FeedsCore
import Logging

/// What a handler knows of the request it serves. The generated handlers take only their
/// input, so the middlewares hand this down as a task-local value.
struct RequestScope: Sendable {
    var requestID: String
    var logger: Logger
    var start: ContinuousClock.Instant
    /// Set by the auth middleware on `/api` routes.
    var principal: Principal?

    @TaskLocal static var current: RequestScope?

    /// Stream's `duration` field: time spent so far, like `1.23ms`.
    var duration: String {
        // In hundredths of a millisecond (1e13 attoseconds), rounded; integer formatting, as
        // `String(format:)` cost a percent of every request.
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        let hundredths = seconds * 100_000 + (attoseconds + 5_000_000_000_000) / 10_000_000_000_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)ms"
    }
}
