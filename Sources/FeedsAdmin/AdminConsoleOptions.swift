import FeedsCore
import Foundation

/// How the admin console keeps time and sessions; the tests swap the clock and the pause.
public struct AdminConsoleOptions: Sendable {
    /// The time for session expiry and the sign-in slow-down.
    public var clock: any AdminClock = SystemAdminClock()
    /// How a slowed-down sign-in waits; the tests record the waits instead of sleeping them.
    public var pause: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// A session ends this long after it was last used.
    public var idleTimeout: TimeInterval = 30 * 60
    /// And this long after sign-in, however busy.
    public var sessionLifetime: TimeInterval = 12 * 3600
    /// How long "Run gc now" may take; other console requests get the request timeout.
    public var gcDeadline: Duration = .seconds(120)

    public init() {}
}
