import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `PinStore` on PostgreSQL: `activity_pins` rows, each change under the feed row's lock (the
/// owner check and the pin count's trigger take the same row).
public struct PostgresPinStore: PinStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func pin(_ activityID: String, to feed: FeedID, by user: String, server: Bool, logger: Logger) async throws
        -> (pin: PinRecord, created: Bool)
    {
        try await client.transaction(logger: logger) { connection in
            try await OwnedFeedLock.take(
                feed, by: server ? .server : .user(user), to: "pin to it", on: connection, logger: logger)
            let inFeed = try await connection.query(
                """
                SELECT 1 FROM activity_feeds f JOIN activities a ON a.id = f.activity_id
                WHERE f.feed = \(feed.description) AND f.activity_id = \(activityID) AND \(unescaped: ActivityLive.predicate("a"))
                """,
                logger: logger)
            var found = false
            for try await _ in inFeed { found = true }
            guard found else { throw FeedsError.notFound("activity \(activityID) is not in \(feed)") }
            if let pinned = try await Self.records(feed, activityID: activityID, on: connection, logger: logger).first {
                return (pinned, false)
            }
            let counted = try await connection.query(
                "SELECT pin_count FROM feeds WHERE fid = \(feed.description)", logger: logger)
            for try await count in counted.decode(Int32.self) where count >= PinPage.maxPins {
                throw FeedsError.input("a feed keeps at most \(PinPage.maxPins) pins; unpin one first", field: "activity_id")
            }
            try await connection.query("INSERT INTO users (id) VALUES (\(user)) ON CONFLICT (id) DO NOTHING", logger: logger)
            try await connection.query(
                "INSERT INTO activity_pins (fid, activity_id, user_id) VALUES (\(feed.description), \(activityID), \(user))",
                logger: logger)
            guard let pinned = try await Self.records(feed, activityID: activityID, on: connection, logger: logger).first else {
                throw FeedsError(.internal, "the pin of \(activityID) vanished in its own transaction")
            }
            return (pinned, true)
        }
    }

    public func unpin(_ activityID: String, from feed: FeedID, by user: String?, logger: Logger) async throws -> PinRecord {
        try await client.transaction(logger: logger) { connection in
            try await OwnedFeedLock.take(
                feed, by: user.map(Principal.user) ?? .server, to: "unpin", on: connection, logger: logger)
            guard let pinned = try await Self.records(feed, activityID: activityID, on: connection, logger: logger).first else {
                throw FeedsError.notFound("activity \(activityID) is not pinned to \(feed)")
            }
            try await connection.query(
                "DELETE FROM activity_pins WHERE fid = \(feed.description) AND activity_id = \(activityID)", logger: logger)
            return pinned
        }
    }

    public func pins(of feed: FeedID, limit: Int, after cursor: KeysetCursor?, logger: Logger) async throws
        -> (pins: [PinRecord], more: Bool)
    {
        var bind = SQLBinds()
        var sql =
            "SELECT \(Self.columns) FROM activity_pins p JOIN users u ON u.id = p.user_id WHERE p.fid = \(try bind(feed.description))"
        if let cursor {
            sql +=
                " AND (p.created_at, p.activity_id) < (\(try bind.time(microseconds: cursor.micros)), \(try bind(cursor.keys[0])))"
        }
        sql += " ORDER BY p.created_at DESC, p.activity_id DESC LIMIT \(limit + 1)"
        var pins = try await Self.decode(try await reads.query(bind.query(sql), logger: logger), feed: feed)
        let more = pins.count > limit
        if more { pins.removeLast() }
        return (pins, more)
    }

    static let columns = "p.activity_id, p.created_at, p.updated_at, \(UserRow.columns(alias: "u"))"

    static func records(_ feed: FeedID, activityID: String, on connection: PostgresConnection, logger: Logger) async throws
        -> [PinRecord]
    {
        let rows = try await connection.query(
            """
            SELECT \(unescaped: columns) FROM activity_pins p JOIN users u ON u.id = p.user_id
            WHERE p.fid = \(feed.description) AND p.activity_id = \(activityID)
            """,
            logger: logger)
        return try await decode(rows, feed: feed)
    }

    static func decode(_ rows: PostgresRowSequence, feed: FeedID) async throws -> [PinRecord] {
        var pins: [PinRecord] = []
        for try await row in rows {
            var columns = RowReader(row)
            let activityID: String = try columns.next()
            let created: Date = try columns.next(), updated: Date = try columns.next()
            pins.append(
                PinRecord(
                    feed: feed, activityID: activityID, user: try UserRow.user(&columns), createdAt: created, updatedAt: updated))
        }
        return pins
    }
}
