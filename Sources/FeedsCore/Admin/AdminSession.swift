import Foundation
import Logging

/// A signed-in admin, as the session store holds it (never the cookie's token itself).
public struct AdminSession: Sendable, Equatable {
    /// How the admin proved they hold the app's secret.
    public enum Credential: String, Sendable {
        case apiSecret = "api secret"
        case serverToken = "server token"
    }

    /// The token forms of this session must carry (CSRF).
    public var csrfToken: String
    public var credential: Credential
    public var createdAt: Date
    /// When the admin was last seen; the session ends `idle` after it.
    public var seenAt: Date
    /// The absolute end, whatever the activity.
    public var expiresAt: Date

    public init(csrfToken: String, credential: Credential, createdAt: Date, seenAt: Date, expiresAt: Date) {
        self.csrfToken = csrfToken
        self.credential = credential
        self.createdAt = createdAt
        self.seenAt = seenAt
        self.expiresAt = expiresAt
    }
}

/// Server-side admin sessions, keyed by a hash of the cookie's token, shared by every node.
public protocol AdminSessionStore: Sendable {
    /// Stores a new session under `tokenHash`.
    func create(_ session: AdminSession, tokenHash: String, logger: Logger) async throws

    /// The live session of `tokenHash` at `now`, its `seenAt` moved to `now` when it is older than
    /// a minute; nil when there is none, or it expired (absolute or idle for longer than `idle`).
    func session(tokenHash: String, now: Date, idle: TimeInterval, logger: Logger) async throws -> AdminSession?

    /// Ends a session (sign-out), and every session over at `now` (expired, or idle for longer than `idle`).
    func end(tokenHash: String, now: Date, idle: TimeInterval, logger: Logger) async throws
}
