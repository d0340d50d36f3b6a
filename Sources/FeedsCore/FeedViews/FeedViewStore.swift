import Logging

/// Where feed views live. Their calls are server-side only; a read with `view` takes one by id.
public protocol FeedViewStore: Sendable {
    func views(logger: Logger) async throws -> [FeedView]

    /// The view, or nil.
    func view(_ id: String, logger: Logger) async throws -> FeedView?

    /// Saves a new view: 409 when the id is taken and `reuse` is false; with `reuse`, the stored
    /// view is returned as it is. Returns the view and whether it was made.
    func create(_ view: FeedView, reuse: Bool, logger: Logger) async throws -> (view: FeedView, created: Bool)

    /// Replaces a view's selectors and ranking (those given); 404 when there is none.
    func update(_ id: String, selectors: [ActivitySelection]?, ranking: Ranking??, logger: Logger) async throws -> FeedView

    /// Deletes a view; 404 when there is none.
    func delete(_ id: String, logger: Logger) async throws

    /// Notes that a read used the view (`last_used_at`), at most once a minute.
    func touch(_ id: String, logger: Logger) async throws
}
