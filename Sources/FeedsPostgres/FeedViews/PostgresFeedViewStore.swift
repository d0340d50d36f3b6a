import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// Feed views in `feed_views` (migration 0034), their selectors and ranking as `Stored` JSON.
public struct PostgresFeedViewStore: FeedViewStore {
    let client: PostgresClient

    public init(client: PostgresClient) { self.client = client }

    public func views(logger: Logger) async throws -> [FeedView] {
        let rows = try await client.query(
            "SELECT id, config::text, last_used_at FROM feed_views ORDER BY id", logger: logger)
        var views: [FeedView] = []
        for try await (id, config, used) in rows.decode((String, String, Date?).self) {
            views.append(try Self.view(id, config, used))
        }
        return views
    }

    public func view(_ id: String, logger: Logger) async throws -> FeedView? {
        let rows = try await client.query(
            "SELECT id, config::text, last_used_at FROM feed_views WHERE id = \(id)", logger: logger)
        for try await (id, config, used) in rows.decode((String, String, Date?).self) { return try Self.view(id, config, used) }
        return nil
    }

    public func create(_ view: FeedView, reuse: Bool, logger: Logger) async throws -> (view: FeedView, created: Bool) {
        let config = try Self.config(view)
        let inserted = try await client.query(
            """
            INSERT INTO feed_views (id, config)
            SELECT \(view.id), \(config)::jsonb WHERE (SELECT count(*) FROM feed_views) < \(FeedView.maxViews)
            ON CONFLICT (id) DO NOTHING RETURNING id
            """, logger: logger)
        for try await _ in inserted { return (view, true) }
        guard let existing = try await self.view(view.id, logger: logger) else {
            throw FeedsError.input("an app keeps at most \(FeedView.maxViews) feed views", field: "id")
        }
        guard reuse else { throw FeedsError(.conflict, "feed view \(view.id) already exists", field: "id") }
        return (existing, false)
    }

    public func update(_ id: String, selectors: [ActivitySelection]?, ranking: Ranking??, logger: Logger) async throws
        -> FeedView
    {
        guard var view = try await self.view(id, logger: logger) else {
            throw FeedsError.notFound("feed view \(id) does not exist")
        }
        if let selectors { view = try FeedView(id: id, selectors: selectors, ranking: view.ranking, lastUsedAt: view.lastUsedAt) }
        if let ranking { view.ranking = ranking }
        try await client.query(
            "UPDATE feed_views SET config = \(try Self.config(view))::jsonb, updated_at = now() WHERE id = \(id)",
            logger: logger)
        return view
    }

    public func delete(_ id: String, logger: Logger) async throws {
        let rows = try await client.query("DELETE FROM feed_views WHERE id = \(id) RETURNING id", logger: logger)
        for try await _ in rows { return }
        throw FeedsError.notFound("feed view \(id) does not exist")
    }

    public func touch(_ id: String, logger: Logger) async throws {
        try await client.query(
            """
            UPDATE feed_views SET last_used_at = now()
            WHERE id = \(id) AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
            """, logger: logger)
    }

    // MARK: - Stored form

    /// `config`: the selectors and ranking in their Codable form, read back through their checks.
    struct Stored: Codable {
        var selectors: [ActivitySelection]
        var ranking: Ranking?
    }

    static func config(_ view: FeedView) throws -> String {
        String(decoding: try JSONEncoder().encode(Stored(selectors: view.selectors, ranking: view.ranking)), as: UTF8.self)
    }

    static func view(_ id: String, _ config: String, _ used: Date?) throws -> FeedView {
        let stored = try JSONDecoder().decode(Stored.self, from: Data(config.utf8))
        return try FeedView(id: id, selectors: stored.selectors, ranking: stored.ranking, lastUsedAt: used)
    }
}
