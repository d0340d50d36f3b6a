import Foundation
import Synchronization

/// The time the admin console goes by for session expiry and the sign-in slow-down: the
/// system's in the server, one the tests move by hand.
public protocol AdminClock: Sendable {
    var now: Date { get }
}

/// The system clock.
public struct SystemAdminClock: AdminClock {
    public init() {}
    public var now: Date { Date() }
}

/// A clock that moves only when told to (tests).
public final class ManualAdminClock: AdminClock {
    private let time: Mutex<Date>

    public init(_ start: Date = Date()) {
        time = Mutex(start)
    }

    public var now: Date { time.withLock { $0 } }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) {
        time.withLock { $0 += seconds }
    }
}
