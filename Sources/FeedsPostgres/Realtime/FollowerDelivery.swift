import FeedsCore
import Logging
import PostgresNIO

/// The second leg of an event of a public activity: the watchers of the feeds that follow its
/// feeds (a timeline's watchers see the posts, reactions and comments of the feeds it follows).
/// Each node asks only about the feeds watched on it, in one query per batch, and only when the
/// batch has such events: a node where no one watches pays nothing, and fan-out is untouched.
public struct FollowerDelivery: Sendable {
    /// The feeds this node's sockets watch.
    let watched: @Sendable () -> [String]
    /// Hands the events on, with the watched followers of each of their feeds.
    let deliver: @Sendable (_ events: [FeedEvent], _ followers: [String: [String]]) async -> Void

    public init(
        watched: @escaping @Sendable () -> [String],
        deliver: @escaping @Sendable (_ events: [FeedEvent], _ followers: [String: [String]]) async -> Void
    ) {
        self.watched = watched
        self.deliver = deliver
    }

    func deliver(_ events: [FeedEvent], client: PostgresClient, logger: Logger) async throws {
        let targets = Set(events.lazy.filter(\.toFollowers).flatMap(\.fids))
        guard !targets.isEmpty else { return }
        let watched = watched()
        guard !watched.isEmpty else { return }
        let rows = try await client.query(
            """
            SELECT target_fid, array_agg(source_fid) FROM follows
            WHERE target_fid = ANY(\(Array(targets))) AND source_fid = ANY(\(watched)) AND status = 'accepted'
            GROUP BY target_fid
            """, logger: logger)
        var followers: [String: [String]] = [:]
        for try await (target, sources) in rows.decode((String, [String]).self) { followers[target] = sources }
        guard !followers.isEmpty else { return }
        await deliver(events.filter(\.toFollowers), followers)
    }
}
