import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `ActivityStore` on PostgreSQL: every write one transaction, every query parameterised.
public struct PostgresActivityStore: ActivityStore {
    let client: PostgresClient
    /// Where the prepared reads (the feed row, the feed pages) run, with their generic plans
    /// (`Configuration.generic`).
    let prepared: PostgresClient

    public init(client: PostgresClient, prepared: PostgresClient? = nil) {
        self.client = client
        self.prepared = prepared ?? client
    }

    /// One prepared statement (`InsertActivity`) writes the activity and all that goes with it and
    /// returns what the response needs: no transaction, no read-back, no planning, so a create is
    /// one round trip. Attachments that link uploads add a transaction, to mark them attached and
    /// to refuse any claimed for deletion meanwhile; so does an idempotent create, whose reply is
    /// recorded by the same transaction.
    public func addActivity(
        _ draft: ActivityDraft, by poster: Principal, recording: IdempotentRecord<Activity>? = nil, logger: Logger
    ) async throws -> Activity {
        let insert = InsertActivity(draft, by: poster)
        do {
            if insert.attachments.linked.isEmpty, recording == nil {
                let stored = try await client.committed(logger: logger) { connection in
                    try await Self.inserted(connection.execute(insert, logger: logger), draft)
                }
                return Self.activity(draft, stored, user: try await author(of: draft, stored, on: nil, logger: logger))
            }
            return try await client.transaction(logger: logger) { connection in
                let stored = try await Self.inserted(connection.execute(insert, logger: logger), draft)
                try await Self.attach(insert.attachments.linked, on: connection, logger: logger)
                let activity = Self.activity(
                    draft, stored, user: try await author(of: draft, stored, on: connection, logger: logger))
                if let recording {
                    try await PostgresIdempotencyStore.record(recording, of: activity, on: connection, logger: logger)
                }
                return activity
            }
        } catch let error as PSQLError where error.isUniqueViolation(of: "activities_pkey") {
            throw FeedsError.conflict("an activity with id \(draft.id) exists already", field: "id")
        }
    }

    /// The activity's user as the insert returned it, or read again when a concurrent request
    /// created the user after the statement's snapshot was taken (the insert then returns none).
    private func author(
        of draft: ActivityDraft, _ stored: InsertActivity.Row, on connection: PostgresConnection?, logger: Logger
    ) async throws -> User {
        if let user = stored.user { return user }
        let user: User?
        if let connection {
            let rows = try await connection.query(
                "SELECT \(unescaped: UserRow.columns) FROM users WHERE id = \(draft.userID)", logger: logger)
            user = try await UserRow.users(rows).first
        } else {
            user = try await storedUser(draft.userID, logger: logger)
        }
        guard let user else { throw FeedsError(.internal, "the activity's user vanished after it was stored") }
        return user
    }

    private static func activity(_ draft: ActivityDraft, _ stored: InsertActivity.Row, user: User) -> Activity {
        var activity = Activity(
            id: draft.id, type: draft.type, user: user, text: draft.text, feeds: draft.feeds.map(\.description),
            visibility: draft.visibility, visibilityTag: draft.visibilityTag, restrictReplies: draft.restrictReplies,
            custom: draft.custom, attachments: draft.attachments, createdAt: stored.created, updatedAt: stored.updated,
            editedAt: nil, deletedAt: nil, expiresAt: draft.expiresAt
        )
        activity.pollID = draft.pollID
        return activity
    }

    /// The row `InsertActivity` returns; none when a feed posted to is another user's.
    private static func inserted<Rows: AsyncSequence>(_ rows: Rows, _ draft: ActivityDraft) async throws -> Rows.Element {
        for try await row in rows { return row }
        let feeds = draft.feeds.map(\.description).joined(separator: ", ")
        throw FeedsError.notAllowed("\(draft.userID) may not add activities to \(feeds): \(InsertActivity.refusal)")
    }

    public func activity(id: String, viewer: Principal, logger: Logger) async throws -> Activity? {
        try await queryActivities(.one(id, viewer: viewer, ownFieldsOf: viewer.userID), logger: logger).activities.first
    }

    public func updateActivity(
        id: String, by principal: Principal, logger: Logger, _ change: @Sendable (Activity) throws -> ActivityDraft
    ) async throws -> Activity {
        let written = try await client.transaction(logger: logger) { connection in
            let current = try await Self.locked([id], on: connection, logger: logger)
            guard let current = current.first else { throw FeedsError.notFound("activity \(id) does not exist") }
            try await Self.write(try change(current), over: current, by: principal, on: connection, logger: logger)
            return current.id
        }
        guard let activity = try await activity(id: written, viewer: .server, logger: logger) else {
            throw FeedsError.notFound("activity \(id) does not exist")
        }
        return activity
    }

    public func updateActivities(
        ids: [String], by principal: Principal, logger: Logger, _ change: @Sendable (Activity) throws -> ActivityDraft?
    ) async throws -> [Activity] {
        let written: [String] = try await client.transaction(logger: logger) { connection in
            var written: [String] = []
            for current in try await Self.locked(ids, on: connection, logger: logger) {
                guard let draft = try change(current) else { continue }
                try await Self.write(draft, over: current, by: principal, on: connection, logger: logger)
                written.append(current.id)
            }
            return written
        }
        guard !written.isEmpty else { return [] }
        var read = ActivityQuery(viewer: .server, limit: ActivityQuery.maxLimit)
        read.ids = written
        let found = Dictionary(
            try await queryActivities(read, logger: logger).activities.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { found[$0] }
    }

    public func upsertActivities(_ drafts: [ActivityDraft], by principal: Principal, logger: Logger) async throws
        -> [(activity: Activity, created: Bool)]
    {
        let written: [(id: String, created: Bool)] = try await client.transaction(logger: logger) { connection in
            let existing = Dictionary(
                try await Self.locked(drafts.map(\.id), on: connection, logger: logger).map { ($0.id, $0) },
                uniquingKeysWith: { first, _ in first })
            var written: [(id: String, created: Bool)] = []
            for (index, draft) in drafts.enumerated() {
                do {
                    if let current = existing[draft.id] {
                        guard principal.mayModify(ownedBy: current.user.id) else {
                            throw FeedsError.notAllowed("activity \(draft.id) is \(current.user.id)'s")
                        }
                        // Its poll stays: an upsert puts none on (AddActivity does).
                        var kept = draft
                        kept.pollID = current.pollID
                        try await Self.write(kept, over: current, by: principal, on: connection, logger: logger)
                        written.append((draft.id, false))
                    } else {
                        let insert = InsertActivity(draft, by: principal)
                        _ = try await Self.inserted(connection.execute(insert, logger: logger), draft)
                        try await Self.attach(insert.attachments.linked, on: connection, logger: logger)
                        written.append((draft.id, true))
                    }
                } catch let error as FeedsError {
                    throw error.inBatch("activities", index)
                } catch let error as PSQLError where error.isUniqueViolation(of: "activities_pkey") {
                    // A deleted activity keeps its id.
                    throw FeedsError.conflict("an activity with id \(draft.id) exists already", field: "id")
                        .inBatch("activities", index)
                }
            }
            return written
        }
        var read = ActivityQuery(viewer: .server, limit: ActivityQuery.maxLimit)
        read.ids = written.map(\.id)
        let found = Dictionary(
            try await queryActivities(read, logger: logger).activities.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return written.compactMap { item in found[item.id].map { ($0, item.created) } }
    }

    /// The live activities of `ids`, locked for an update, in id order (as every writer of
    /// several activities locks them, so that two never wait on each other).
    private static func locked(_ ids: [String], on connection: PostgresConnection, logger: Logger) async throws -> [Activity] {
        let rows = try await connection.query(
            """
            SELECT \(unescaped: ActivityRow.columns) FROM activities a JOIN users u ON u.id = a.user_id
            WHERE a.id = ANY(\(ids)) AND \(unescaped: ActivityLive.predicate("a")) ORDER BY a.id FOR NO KEY UPDATE OF a
            """,
            logger: logger
        )
        var found: [Activity] = []
        for try await row in rows { found.append(try ActivityRow.decode(row).activity) }
        return found
    }

    /// Writes `draft` over the locked activity `current`: its row, its feeds (those it moves into
    /// must be the principal's to post into) and its attachments.
    private static func write(
        _ draft: ActivityDraft, over current: Activity, by principal: Principal, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        let id = current.id
        let feeds = draft.feeds.map(\.description)
        let added = draft.feeds.filter { !current.feeds.contains($0.description) }
        try await checkPostable(added, by: principal, on: connection, logger: logger)
        try await connection.query(
            """
            UPDATE activities SET type = \(draft.type), text = \(draft.text), feeds = \(feeds),
                visibility = \(draft.visibility.rawValue), visibility_tag = \(draft.visibilityTag),
                restrict_replies = \(draft.restrictReplies), custom = \(JSONText.encode(draft.custom))::jsonb,
                poll_id = \(draft.pollID), parent_id = \(draft.parentID), mentioned_user_ids = \(draft.mentionedUserIDs),
                updated_at = now(), edited_at = now()
            WHERE id = \(id)
            """,
            logger: logger
        )
        if draft.parentID != current.parentID {
            // The share moves: one less for the activity it shared, one more for the new one.
            try await connection.query(
                """
                UPDATE activities SET share_count = share_count + CASE WHEN id = \(draft.parentID) THEN 1 ELSE -1 END
                WHERE id IN (\(current.parentID), \(draft.parentID)) AND (id = \(draft.parentID) OR share_count > 0)
                """,
                logger: logger)
        }
        if feeds != current.feeds {
            try await connection.query("DELETE FROM activity_feeds WHERE activity_id = \(id)", logger: logger)
            try await connection.query(
                """
                INSERT INTO activity_feeds (feed, created_at, activity_id)
                SELECT f, a.created_at, a.id FROM activities a, unnest(\(feeds)::text[]) AS f WHERE a.id = \(id)
                ORDER BY f
                """,
                logger: logger
            )
            try await ensureFeeds(draft.feeds, creatorID: draft.userID, on: connection, logger: logger)
        }
        if draft.attachments != current.attachments {
            let held = current.attachments.compactMap(\.objectKey?.rawValue)
            try await lockObjects(held, on: connection, logger: logger)
            try await connection.query("DELETE FROM attachments WHERE activity_id = \(id)", logger: logger)
            try await insertAttachments(draft.attachments, activityID: id, on: connection, logger: logger)
            try await release(held, on: connection, logger: logger)
        }
    }

    public func deleteActivities(
        ids: [String], hard: Bool, logger: Logger, mayDelete: @Sendable (String) -> Bool
    ) async throws -> [String] {
        try await client.transaction(logger: logger) { connection in
            // A hard delete also clears what a soft delete left behind. Only it needs FOR UPDATE:
            // a soft delete keeps the row, so comments and reactions (KEY SHARE) need not wait.
            let rows = try await connection.query(
                """
                SELECT id, user_id FROM activities
                WHERE id = ANY(\(ids)) AND (deleted_at IS NULL OR \(hard)) ORDER BY id
                FOR \(unescaped: hard ? "UPDATE" : "NO KEY UPDATE")
                """,
                logger: logger
            )
            var found: [String] = []
            for try await (id, owner) in rows.decode((String, String).self) {
                guard mayDelete(owner) else { throw FeedsError.notAllowed("activity \(id) belongs to another user") }
                found.append(id)
            }
            try await Self.remove(found, hard: hard, on: connection, logger: logger)
            return found
        }
    }

    /// Deletes activities whose rows the caller locked: soft (kept, out of their feeds and pins)
    /// or hard (gone, with their files and all that hangs off them).
    static func remove(_ found: [String], hard: Bool, on connection: PostgresConnection, logger: Logger) async throws {
        guard !found.isEmpty else { return }
        // The live shares among them count no more for the activities they share.
        try await connection.query(
            """
            UPDATE activities p SET share_count = GREATEST(p.share_count - s.n, 0)
            FROM (SELECT parent_id, count(*)::int AS n FROM activities WHERE id = ANY(\(found)) AND parent_id IS NOT NULL
                AND deleted_at IS NULL GROUP BY parent_id) s
            WHERE p.id = s.parent_id
            """,
            logger: logger)
        if hard {
            var held: [String] = []
            // The activities' own files, and their comments' (which go with them).
            for try await key in try await connection.query(
                """
                SELECT object_key FROM attachments WHERE activity_id = ANY(\(found)) AND object_key IS NOT NULL
                UNION SELECT t.object_key FROM comment_attachments t JOIN comments c ON c.id = t.comment_id
                WHERE c.activity_id = ANY(\(found)) AND t.object_key IS NOT NULL
                """,
                logger: logger
            ).decode(String.self) {
                held.append(key)
            }
            try await Self.lockObjects(held, on: connection, logger: logger)
            try await connection.query("DELETE FROM activities WHERE id = ANY(\(found))", logger: logger)
            try await Self.release(held, on: connection, logger: logger)
        } else {
            try await connection.query(
                "UPDATE activities SET deleted_at = now(), updated_at = now() WHERE id = ANY(\(found))", logger: logger
            )
            // Out of its feeds too, so that a feed's count is its index rows (0004_feed_rows_follow_deletes.sql).
            try await connection.query("DELETE FROM activity_feeds WHERE activity_id = ANY(\(found))", logger: logger)
            // Unpinned too: a deleted activity is pinned nowhere (a hard delete cascades).
            try await connection.query("DELETE FROM activity_pins WHERE activity_id = ANY(\(found))", logger: logger)
        }
    }

    public func restoreActivity(id: String, logger: Logger, mayRestore: @Sendable (String) -> Bool) async throws {
        try await client.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                SELECT user_id, deleted_at IS NOT NULL, expires_at IS NOT NULL AND expires_at <= now()
                FROM activities WHERE id = \(id) FOR NO KEY UPDATE
                """, logger: logger)
            var found = false
            for try await (owner, deleted, expired) in rows.decode((String, Bool, Bool).self) {
                found = true
                guard mayRestore(owner) else { throw FeedsError.notAllowed("activity \(id) belongs to another user") }
                guard deleted else { throw FeedsError.input("activity \(id) is not deleted", field: "id") }
                guard !expired else { throw FeedsError.input("activity \(id) has expired", field: "id") }
            }
            guard found else { throw FeedsError.notFound("activity \(id) does not exist") }
            try await connection.query(
                "UPDATE activities SET deleted_at = NULL, updated_at = now() WHERE id = \(id)", logger: logger)
            // A share counts again for the activity it shares.
            try await connection.query(
                """
                UPDATE activities p SET share_count = p.share_count + 1 FROM activities s
                WHERE s.id = \(id) AND p.id = s.parent_id
                """, logger: logger)
            // Back in its feeds, in fid order as a create writes them; their trigger counts it and
            // queues the fan-out to followers again.
            try await connection.query(
                """
                INSERT INTO activity_feeds (feed, created_at, activity_id)
                SELECT f, a.created_at, a.id FROM activities a, unnest(a.feeds) AS f WHERE a.id = \(id) ORDER BY f
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
    }
}

extension PostgresActivityStore {
    /// Activities past their `expires_at`, the longest expired first.
    public func expiredActivityIDs(limit: Int, logger: Logger) async throws -> [String] {
        let rows = try await client.query(
            "SELECT id FROM activities WHERE expires_at <= now() ORDER BY expires_at, id LIMIT \(limit)", logger: logger)
        var ids: [String] = []
        for try await id in rows.decode(String.self) { ids.append(id) }
        return ids
    }
}
