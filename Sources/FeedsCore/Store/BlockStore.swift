import Logging

/// Where blocks live. A user blocks and unblocks for themselves; the server for anyone.
public protocol BlockStore: Sendable {
    /// `user` blocks `blocked` (again is fine: the first block stands), and every follow between
    /// their feeds ends, both ways, with the copies it made. `blocked` must exist.
    func block(_ blocked: String, by user: String, logger: Logger) async throws -> UserBlock

    /// Ends `user`'s block of `blocked`; none is fine.
    func unblock(_ blocked: String, by user: String, logger: Logger) async throws

    /// The users `user` has blocked, newest first (at most `limit`).
    func blocks(by user: String, limit: Int, logger: Logger) async throws -> [UserBlock]
}
