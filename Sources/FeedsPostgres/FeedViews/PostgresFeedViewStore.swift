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

    struct Stored: Codable {
        struct Selector: Codable {
            var type: String
            var cutoffWindow: Int?
            var cutoffTime: Double?
            var minPopularity: Int?
            var filter: String?
        }
        struct Decay: Codable {
            var origin: Double?
            var scale: Int
            var offset: Int
            var decay: Double
        }
        struct Rank: Codable {
            var score: String
            var defaults: [String: Double]
            var functions: [String: Decay]
        }
        var selectors: [Selector]
        var ranking: Rank?
    }

    static func config(_ view: FeedView) throws -> String {
        let stored = Stored(
            selectors: view.selectors.map {
                .init(
                    type: $0.kind.rawValue, cutoffWindow: $0.cutoffWindow, cutoffTime: $0.cutoffTime?.timeIntervalSince1970,
                    minPopularity: $0.minPopularity, filter: $0.filter.map { JSONValue.object($0).text })
            },
            ranking: view.ranking.map { ranking in
                .init(
                    score: ranking.score, defaults: ranking.defaults,
                    functions: Dictionary(
                        uniqueKeysWithValues: ranking.decays.map { function, decay in
                            (
                                function.rawValue,
                                Stored.Decay(
                                    origin: decay.origin?.timeIntervalSince1970, scale: decay.scale, offset: decay.offset,
                                    decay: decay.decay)
                            )
                        }))
            })
        return String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
    }

    static func view(_ id: String, _ config: String, _ used: Date?) throws -> FeedView {
        let stored = try JSONDecoder().decode(Stored.self, from: Data(config.utf8))
        let selectors = try stored.selectors.enumerated().map { index, selector in
            guard let kind = ActivitySelection.Kind(rawValue: selector.type) else {
                throw FeedsError(.internal, "feed view \(id) has an unknown selector \(selector.type)")
            }
            return try ActivitySelection(
                kind: kind, cutoffWindow: selector.cutoffWindow,
                cutoffTime: selector.cutoffTime.map { Date(timeIntervalSince1970: $0) }, minPopularity: selector.minPopularity,
                filter: try selector.filter.map { text -> JSONObject in
                    guard case .object(let filter) = try JSONValue(parsing: text) else { return [:] }
                    return filter
                },
                field: "activity_selectors[\(index)]")
        }
        let ranking = try stored.ranking.map { rank in
            try Ranking(
                score: rank.score, defaults: rank.defaults,
                decays: Dictionary(
                    uniqueKeysWithValues: try rank.functions.compactMap { name, decay in
                        guard let function = RankingExpression.Function(rawValue: name) else { return nil }
                        return (
                            function,
                            try Ranking.Decay(
                                origin: decay.origin.map { Date(timeIntervalSince1970: $0) }, scale: decay.scale,
                                offset: decay.offset, decay: decay.decay, field: "ranking.functions.\(name)")
                        )
                    }))
        }
        return try FeedView(id: id, selectors: selectors, ranking: ranking, lastUsedAt: used)
    }
}
