import Foundation

/// One user's block of another (`BlockUsers`): neither then sees the other's activities,
/// comments or reactions, nor follows, reacts to or comments on the other's.
public struct UserBlock: Sendable, Equatable {
    public var user: User
    public var blocked: User
    public var createdAt: Date

    public init(user: User, blocked: User, createdAt: Date) {
        (self.user, self.blocked, self.createdAt) = (user, blocked, createdAt)
    }
}
