import Logging

/// What a handler knows of the request it serves. The generated handlers take only their
/// input, so the middlewares hand this down as a task-local value.
package struct RequestScope: Sendable {
    package var requestID: String
    package var logger: Logger
    package var start: ContinuousClock.Instant
    /// Set by the auth middleware on `/api` routes.
    package var principal: Principal?
    /// The client's address, as the connection or a trusted proxy gave it.
    package var peer: String?
    /// This node's settings, for what a request reads of them only when it needs it
    /// (`FeedGrants.inForce`).
    package var settings: AppSettingsCache?

    package init(requestID: String, logger: Logger, start: ContinuousClock.Instant, principal: Principal?, peer: String? = nil) {
        (self.requestID, self.logger, self.start, self.principal, self.peer) = (requestID, logger, start, principal, peer)
    }

    @TaskLocal package static var current: RequestScope?

    /// Stream's `duration` field: time spent so far, like `1.23ms`.
    package var duration: String { Self.duration(since: start) }

    package static func duration(since start: ContinuousClock.Instant) -> String {
        // In hundredths of a millisecond (1e13 attoseconds), rounded; integer formatting, as
        // `String(format:)` cost a percent of every request.
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        let hundredths = seconds * 100_000 + (attoseconds + 5_000_000_000_000) / 10_000_000_000_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)ms"
    }
}
