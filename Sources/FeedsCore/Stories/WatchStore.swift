import Logging

/// Which stories each user watched (MarkActivity's `mark_watched`), for `is_watched`.
public protocol WatchStore: Sendable {
    /// Records that `user` watched the activities `ids` (those that exist); again is a no-op.
    func markWatched(_ ids: [String], by user: String, logger: Logger) async throws

    /// Which of `ids` `user` watched.
    func watched(_ ids: [String], by user: String, logger: Logger) async throws -> Set<String>
}
