import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `DeviceStore.followerPushes`: who is told of a new activity by a feed they follow.
extension PostgresActivityStore {
    public func followerPushes(of id: String, after: String?, limit: Int, logger: Logger) async throws -> [FollowerPush] {
        // The follows of the activity's feeds that ask for pushes (few: `none` is the default),
        // their owners who may read it (`ActivityReadable`, blocks included) and have a device;
        // one row a recipient, by the first of their follows.
        // On the primary: the activity was just written.
        let rows = try await client.query(
            """
            SELECT DISTINCT ON (s.created_by) s.created_by, f.target_fid
            FROM activities a
            JOIN follows f ON f.target_fid = ANY(a.feeds) AND f.status = 'accepted' AND f.push_preference = 'all'
            JOIN feeds s ON s.fid = f.source_fid
            WHERE a.id = \(id) AND \(unescaped: ActivityLive.predicate("a")) AND s.created_by <> a.user_id
                AND s.created_by > \(after ?? "")
                AND EXISTS (SELECT 1 FROM devices d WHERE d.user_id = s.created_by AND NOT d.disabled)
                AND \(unescaped: ActivityReadable.predicate(activity: "a", user: "s.created_by"))
            ORDER BY s.created_by, f.target_fid LIMIT \(limit)
            """, logger: logger)
        var found: [(recipient: String, feed: String)] = []
        for try await (recipient, feed) in rows.decode((String, String).self) { found.append((recipient, feed)) }
        guard !found.isEmpty else { return [] }
        let devices = try await Self.devices(
            client.query(
                """
                SELECT \(unescaped: Self.deviceColumns) FROM devices
                WHERE user_id = ANY(\(found.map(\.recipient))) AND NOT disabled ORDER BY user_id, created_at DESC, id DESC
                """, logger: logger))
        let byUser = Dictionary(grouping: devices, by: \.userID)
        // A device removed meanwhile leaves its user with none: the caller skips them.
        return found.map { FollowerPush(recipient: $0.recipient, feed: $0.feed, devices: byUser[$0.recipient] ?? []) }
    }
}
