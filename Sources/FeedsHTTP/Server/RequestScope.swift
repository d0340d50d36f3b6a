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
        let elapsed = ContinuousClock.now - start
        let millis = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return String(format: "%.2fms", millis)
    }
}
