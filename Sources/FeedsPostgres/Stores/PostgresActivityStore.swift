import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `ActivityStore` on PostgreSQL: every write one transaction, every query parameterised.
public struct PostgresActivityStore: ActivityStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func addActivity(_ draft: ActivityDraft, logger: Logger) async throws -> Activity {
        do {
            try await client.transaction(logger: logger) { connection in
                try await Self.ensureUser(draft.userID, on: connection, logger: logger)
                try await connection.query(
                    """
                    WITH a AS (
                        INSERT INTO activities (id, type, user_id, text, feeds, visibility, visibility_tag, restrict_replies, custom)
                        VALUES (\(draft.id), \(draft.type), \(draft.userID), \(draft.text), \(draft.feeds.map(\.description)),
                                \(draft.visibility.rawValue), \(draft.visibilityTag), \(draft.restrictReplies),
                                \(try JSONText.encode(draft.custom))::jsonb)
                        RETURNING id, created_at
                    )
                    INSERT INTO activity_feeds (feed, created_at, activity_id)
                    SELECT f, a.created_at, a.id FROM a, unnest(\(draft.feeds.map(\.description))::text[]) AS f
                    """,
                    logger: logger
                )
                try await Self.ensureFeeds(draft.feeds, creatorID: draft.userID, on: connection, logger: logger)
                try await Self.insertAttachments(draft.attachments, activityID: draft.id, on: connection, logger: logger)
            }
        } catch let error as PSQLError where error.isUniqueViolation(of: "activities_pkey") {
            throw FeedsError.conflict("an activity with id \(draft.id) exists already", field: "id")
        }
        guard let activity = try await activity(id: draft.id, viewer: .server, logger: logger) else {
            throw FeedsError(.internal, "the activity vanished after it was stored")
        }
        return activity
    }

    public func activity(id: String, viewer: Principal, logger: Logger) async throws -> Activity? {
        var query = ActivityQuery(viewer: viewer, limit: 1)
        query.ids = [id]
        return try await queryActivities(query, logger: logger).activities.first
    }

    public func updateActivity(
        id: String, logger: Logger, _ change: @Sendable (Activity) throws -> ActivityDraft
    ) async throws -> Activity {
        try await client.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: ActivityRow.columns) FROM activities a JOIN users u ON u.id = a.user_id
                WHERE a.id = \(id) AND a.deleted_at IS NULL FOR UPDATE OF a
                """,
                logger: logger
            )
            var current: Activity?
            for try await row in rows { current = try ActivityRow.decode(row).activity }
            guard let current else { throw FeedsError.notFound("activity \(id) does not exist") }
            let draft = try change(current)
            let feeds = draft.feeds.map(\.description)
            try await connection.query(
                """
                UPDATE activities SET type = \(draft.type), text = \(draft.text), feeds = \(feeds),
                    visibility = \(draft.visibility.rawValue), visibility_tag = \(draft.visibilityTag),
                    restrict_replies = \(draft.restrictReplies), custom = \(try JSONText.encode(draft.custom))::jsonb,
                    updated_at = now(), edited_at = now()
                WHERE id = \(id)
                """,
                logger: logger
            )
            if feeds != current.feeds {
                try await connection.query("DELETE FROM activity_feeds WHERE activity_id = \(id)", logger: logger)
                try await connection.query(
                    """
                    INSERT INTO activity_feeds (feed, created_at, activity_id)
                    SELECT f, a.created_at, a.id FROM activities a, unnest(\(feeds)::text[]) AS f WHERE a.id = \(id)
                    """,
                    logger: logger
                )
                try await Self.ensureFeeds(draft.feeds, creatorID: draft.userID, on: connection, logger: logger)
            }
            if draft.attachments != current.attachments {
                try await connection.query("DELETE FROM attachments WHERE activity_id = \(id)", logger: logger)
                try await Self.insertAttachments(draft.attachments, activityID: id, on: connection, logger: logger)
            }
        }
        guard let activity = try await activity(id: id, viewer: .server, logger: logger) else {
            throw FeedsError.notFound("activity \(id) does not exist")
        }
        return activity
    }

    public func deleteActivities(
        ids: [String], hard: Bool, logger: Logger, mayDelete: @Sendable (String) -> Bool
    ) async throws -> [String] {
        try await client.transaction(logger: logger) { connection in
            // A hard delete also clears what a soft delete left behind.
            let rows = try await connection.query(
                """
                SELECT id, user_id FROM activities
                WHERE id = ANY(\(ids)) AND (deleted_at IS NULL OR \(hard)) ORDER BY id FOR UPDATE
                """,
                logger: logger
            )
            var found: [String] = []
            for try await (id, owner) in rows.decode((String, String).self) {
                guard mayDelete(owner) else { throw FeedsError.notAllowed("activity \(id) belongs to another user") }
                found.append(id)
            }
            if hard {
                try await connection.query("DELETE FROM activities WHERE id = ANY(\(found))", logger: logger)
            } else {
                try await connection.query(
                    "UPDATE activities SET deleted_at = now(), updated_at = now() WHERE id = ANY(\(found))", logger: logger
                )
                // Out of its feeds too, so that a feed's count is its index rows (0004_feed_rows_follow_deletes.sql).
                try await connection.query("DELETE FROM activity_feeds WHERE activity_id = ANY(\(found))", logger: logger)
            }
            return found
        }
    }

    static func ensureUser(_ id: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("INSERT INTO users (id) VALUES (\(id)) ON CONFLICT (id) DO NOTHING", logger: logger)
    }

    static func ensureFeeds(_ feeds: [FeedID], creatorID: String, on connection: PostgresConnection, logger: Logger) async throws
    {
        try await connection.query(
            """
            INSERT INTO feeds (fid, group_id, feed_id, created_by)
            SELECT f, g, i, \(creatorID)
            FROM unnest(\(feeds.map(\.description))::text[], \(feeds.map(\.group))::text[], \(feeds.map(\.id))::text[]) AS x(f, g, i)
            ON CONFLICT (fid) DO NOTHING
            """,
            logger: logger
        )
    }

    /// Inserts attachments in order. Those holding one of our objects link it (the key moves from
    /// the payload to its column) and flip it to attached; an object deleted meanwhile refuses the write.
    static func insertAttachments(
        _ attachments: [JSONObject], activityID: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        guard !attachments.isEmpty else { return }
        // Arrays of text cannot hold Swift optionals: "" stands for none.
        var types: [String] = []
        var payloads: [String] = []
        var keys: [String] = []
        for attachment in attachments {
            var payload = attachment
            let key = AttachmentPayload.objectKey(in: payload)
            payload[AttachmentPayload.objectKeyField] = nil
            if case .string(let type) = payload["type"] { types.append(type) } else { types.append("") }
            payloads.append(try JSONText.encode(payload))
            keys.append(key?.rawValue ?? "")
        }
        try await connection.query(
            """
            INSERT INTO attachments (activity_id, position, type, payload, object_key)
            SELECT \(activityID), x.n - 1, NULLIF(x.t, ''), x.p::jsonb, NULLIF(x.k, '')
            FROM unnest(\(types)::text[], \(payloads)::text[], \(keys)::text[]) WITH ORDINALITY AS x(t, p, k, n)
            """,
            logger: logger
        )
        let linked = keys.filter { !$0.isEmpty }
        guard !linked.isEmpty else { return }
        let rows = try await connection.query(
            """
            UPDATE cdn_objects SET state = 'attached', updated_at = now()
            WHERE key = ANY(\(linked)) AND state <> 'deleted' RETURNING key
            """,
            logger: logger
        )
        var attached = Set<String>()
        for try await key in rows.decode(String.self) { attached.insert(key) }
        if let missing = linked.first(where: { !attached.contains($0) }) {
            throw FeedsError.input("attachment object \(missing) does not exist or was deleted", field: "attachments")
        }
    }
}
