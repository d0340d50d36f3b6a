import Foundation
import Synchronization

/// The users deactivated (DeactivateUser): each node keeps the set in memory, so that refusing
/// their tokens costs a request no database read. A listener keeps it current across nodes.
public final class DeactivatedUsers: Sendable {
    private let ids = Mutex<Set<String>>([])

    public init() {}

    public func contains(_ id: String) -> Bool { ids.withLock { $0.contains(id) } }

    /// Takes `latest` as the set; returns those who were not in it before.
    @discardableResult
    public func replace(with latest: Set<String>) -> Set<String> {
        ids.withLock { current in
            defer { current = latest }
            return latest.subtracting(current)
        }
    }

    /// This node's own change, at once (the listener confirms it).
    public func update(deactivated: [String], reactivated: [String]) {
        ids.withLock { current in
            current.formUnion(deactivated)
            current.subtract(reactivated)
        }
    }
}

/// A user as DeactivateUser and ReactivateUser answer: with when they were deactivated (nil: active).
public struct UserActivation: Sendable {
    public let user: User
    public let deactivatedAt: Date?

    public init(user: User, deactivatedAt: Date?) { (self.user, self.deactivatedAt) = (user, deactivatedAt) }
}
