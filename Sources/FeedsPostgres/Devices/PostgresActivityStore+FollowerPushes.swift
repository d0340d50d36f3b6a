import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `DeviceStore.followerPushes`: who is told of a new activity by a feed they follow.
extension PostgresActivityStore {
    public func followerPushes(of id: String, after: String?, limit: Int, logger: Logger) async throws -> [FollowerPush] {
        // On the primary: the activity was just written.
        var found: [(recipient: String, feed: String)] = []
        for try await row in try await prepared.execute(
            FollowerPushRecipients(activityID: id, after: after ?? "", limit: limit), logger: logger)
        {
            found.append(row)
        }
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

/// The recipients of a new activity's pushes: the follows of its feeds that ask for them (few:
/// `none` is the default), their owners who may read it (`ActivityReadable`, blocks included) and
/// have a device; one row a recipient, by the first of their follows. Prepared on the primary's
/// generic-plan pool: it runs for every post while a webhook takes pushes, and planning its joins
/// cost PostgreSQL a millisecond a post (a third of its CPU in the webhook bench), running it tens
/// of microseconds.
struct FollowerPushRecipients: PostgresPreparedStatement {
    typealias Row = (recipient: String, feed: String)
    static let name = "FollowerPushRecipients"
    static let sql = """
        SELECT DISTINCT ON (s.created_by) s.created_by, f.target_fid
        FROM activities a
        JOIN follows f ON f.target_fid = ANY(a.feeds) AND f.status = 'accepted' AND f.push_preference = 'all'
        JOIN feeds s ON s.fid = f.source_fid
        WHERE a.id = $1 AND \(ActivityLive.predicate("a")) AND s.created_by <> a.user_id AND s.created_by > $2
            AND EXISTS (SELECT 1 FROM devices d WHERE d.user_id = s.created_by AND NOT d.disabled)
            AND \(ActivityReadable.predicate(activity: "a", user: "s.created_by"))
        ORDER BY s.created_by, f.target_fid LIMIT $3
        """

    let activityID: String
    let after: String
    let limit: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(activityID)
        bindings.append(after)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (recipient, feed) = try row.decode((String, String).self)
        return (recipient, feed)
    }
}
