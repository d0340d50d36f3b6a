import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// Runs DeleteUsers' and DeleteFeedUserData's tasks (`UserErasure`): for each user in turn, the
/// phases that apply, each in bounded steps of its own transactions, each step taking whatever
/// of theirs is left (so a step run twice, or a task taken over by another node, does no harm).
/// The count triggers keep every count others see; files go through `erase` (bytes deleted,
/// variants purged). Progress is in the task's `result`: `users_done` of `users_total`, the
/// current `user_id` and `phase`, and a `deleted_…` count per phase.
public struct UserEraser: TaskHandler {
    public static let kinds = ["delete-users", "delete-feed-user-data"]

    let store: PostgresActivityStore
    /// Deletes objects' bytes from the store and purges their cached variants, then marks them
    /// deleted; throws if the store refused (the step is tried again).
    let erase: @Sendable ([String]) async throws -> Void

    public init(store: PostgresActivityStore, erase: @escaping @Sendable ([String]) async throws -> Void) {
        (self.store, self.erase) = (store, erase)
    }

    var client: PostgresClient { store.client }

    /// In the order they run: what hangs off their posts and feeds goes before them.
    enum Phase: String, CaseIterable {
        case notifications, reactions, commentReactions = "comment_reactions", bookmarks, votes, engagement
        case comments, activities, polls, feeds, files, account

        func applies(to erasure: UserErasure) -> Bool {
            switch self {
            case .comments, .activities: erasure.posts != nil
            case .files: erasure.files
            case .account: erasure.account != nil
            default: erasure.feedData
            }
        }
    }

    public func step(_ task: inout PostgresTasks.Claimed, logger: Logger) async throws -> Bool {
        let erasure = try JSONDecoder().decode(UserErasure.self, from: Data(task.input.utf8))
        let phases = Phase.allCases.filter { $0.applies(to: erasure) }
        var done = task.result.count("users_done")
        guard done < erasure.userIDs.count, let first = phases.first else { return true }
        let user = erasure.userIDs[done]
        var phase = task.result.text("phase").flatMap(Phase.init) ?? first
        if !phases.contains(phase) { phase = first }

        let removed = try await run(phase, of: user, erasure, logger: logger)
        let counter = "deleted_\(phase.rawValue)"
        task.result[counter] = .number(Double(task.result.count(counter) + max(removed, 0)))
        if removed < 0 {
            // New rows pointed at the account as it was to go: the phases run again.
            phase = first
        } else if removed == 0 {
            if let next = phases.firstIndex(of: phase).map({ $0 + 1 }), next < phases.count {
                phase = phases[next]
            } else {
                done += 1
                phase = first
            }
        }
        task.result["users_total"] = .number(Double(erasure.userIDs.count))
        task.result["users_done"] = .number(Double(done))
        task.result["user_id"] = done < erasure.userIDs.count ? .string(erasure.userIDs[done]) : nil
        task.result["phase"] = done < erasure.userIDs.count ? .string(phase.rawValue) : nil
        return done == erasure.userIDs.count
    }

    /// One step of `phase`: how many rows it removed, 0 when none of theirs is left, -1 when
    /// the account could not go yet.
    func run(_ phase: Phase, of user: String, _ erasure: UserErasure, logger: Logger) async throws -> Int {
        let hard = erasure.posts == .hard
        switch phase {
        case .notifications: return try await notifications(by: user, logger: logger)
        case .reactions: return try await deleteRows("activity_reactions", "activity_id, user_id, type", of: user, logger)
        case .commentReactions: return try await deleteRows("comment_reactions", "comment_id, user_id, type", of: user, logger)
        case .bookmarks: return try await bookmarks(of: user, logger: logger)
        case .votes: return try await votes(of: user, logger: logger)
        case .engagement: return try await engagement(of: user, logger: logger)
        case .comments: return try await comments(of: user, hard: hard, logger: logger)
        case .activities: return try await activities(of: user, hard: hard, logger: logger)
        case .polls: return try await polls(of: user, logger: logger)
        case .feeds: return try await feeds(of: user, hard: hard, logger: logger)
        case .files: return try await files(of: user, logger: logger)
        case .account: return try await account(of: user, erasure.account ?? .soft, logger: logger)
        }
    }

    static let batch = 500

    /// Up to a batch of the user's rows of `table` (keyed by `key`); the count triggers adjust
    /// the objects' counts.
    private func deleteRows(_ table: String, _ key: String, of user: String, _ logger: Logger) async throws -> Int {
        try await count(
            try await client.query(
                """
                WITH gone AS (
                    DELETE FROM \(unescaped: table) WHERE (\(unescaped: key)) IN (
                        SELECT \(unescaped: key) FROM \(unescaped: table) WHERE user_id = \(user) LIMIT \(Self.batch))
                    RETURNING 1
                ) SELECT count(*)::int FROM gone
                """, logger: logger))
    }

    /// The notifications they caused in others' feeds, each counted out of its group.
    private func notifications(by user: String, logger: Logger) async throws -> Int {
        try await client.transaction(logger: logger) { connection in
            try await PostgresNotificationStore.takeAll(
                where: "user_id", is: user, limit: Self.batch, on: connection, logger: logger
            ).count
        }
    }

    /// Their bookmarks (counted out of the activities and comments), then their folders.
    private func bookmarks(of user: String, logger: Logger) async throws -> Int {
        let marks = try await deleteRows("bookmarks", "ctid", of: user, logger)
        if marks > 0 { return marks }
        return try await deleteRows("bookmark_folders", "id", of: user, logger)
    }

    /// Their poll votes, counted out of the options and polls; the polls are locked first, as a
    /// vote locks them.
    private func votes(of user: String, logger: Logger) async throws -> Int {
        try await client.transaction(logger: logger) { connection in
            let locked = try await connection.query(
                """
                SELECT id FROM polls WHERE id IN (SELECT poll_id FROM poll_votes WHERE user_id = \(user) LIMIT \(Self.batch))
                ORDER BY id FOR UPDATE
                """, logger: logger)
            var polls: [String] = []
            for try await id in locked.decode(String.self) { polls.append(id) }
            return try await count(
                try await connection.query(
                    """
                    WITH gone AS (
                        DELETE FROM poll_votes WHERE user_id = \(user) AND poll_id = ANY(\(polls)) RETURNING poll_id, option_id
                    ), options AS (
                        UPDATE poll_options o SET vote_count = o.vote_count - g.n
                        FROM (SELECT poll_id, option_id, count(*)::int AS n FROM gone WHERE option_id IS NOT NULL GROUP BY 1, 2) g
                        WHERE o.poll_id = g.poll_id AND o.id = g.option_id
                    ), counted AS (
                        UPDATE polls p SET vote_count = p.vote_count - g.votes, answers_count = p.answers_count - g.answers
                        FROM (SELECT poll_id, count(option_id)::int AS votes, (count(*) - count(option_id))::int AS answers
                              FROM gone GROUP BY 1) g
                        WHERE p.id = g.poll_id
                    )
                    SELECT count(*)::int FROM gone
                    """, logger: logger))
        }
    }

    /// What else they did to others' things: pins, memberships, feedback, stories watched.
    private func engagement(of user: String, logger: Logger) async throws -> Int {
        var removed = 0
        removed += try await deleteRows("activity_pins", "fid, activity_id", of: user, logger)
        removed += try await deleteRows("feed_members", "fid, user_id", of: user, logger)
        removed += try await deleteRows("activity_feedback", "activity_id, user_id", of: user, logger)
        removed += try await deleteRows("watched_activities", "user_id, activity_id", of: user, logger)
        return removed
    }

    /// Up to 50 of their comments (hard: all of them, with the replies under them; soft: the
    /// live ones), as DeleteComment removes them.
    private func comments(of user: String, hard: Bool, logger: Logger) async throws -> Int {
        try await client.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                SELECT id FROM comments WHERE user_id = \(user) AND (deleted_at IS NULL OR \(hard))
                ORDER BY id LIMIT 50 FOR \(unescaped: hard ? "UPDATE" : "NO KEY UPDATE")
                """, logger: logger)
            var ids: [String] = []
            for try await id in rows.decode(String.self) { ids.append(id) }
            try await PostgresActivityStore.removeComments(ids, hard: hard, on: connection, logger: logger)
            return ids.count
        }
    }

    /// Up to 100 of their activities, as DeleteActivities deletes them.
    private func activities(of user: String, hard: Bool, logger: Logger) async throws -> Int {
        var ids: [String] = []
        for try await id in try await client.query(
            "SELECT id FROM activities WHERE user_id = \(user) AND (deleted_at IS NULL OR \(hard)) ORDER BY id LIMIT 100",
            logger: logger
        ).decode(String.self) { ids.append(id) }
        guard !ids.isEmpty else { return 0 }
        _ = try await store.deleteActivities(ids: ids, hard: hard, logger: logger, mayDelete: { _ in true })
        return ids.count
    }

    /// The polls they made (their options and votes go with them; activities keep no poll).
    private func polls(of user: String, logger: Logger) async throws -> Int {
        try await count(
            try await client.query(
                """
                WITH gone AS (
                    DELETE FROM polls WHERE id IN (SELECT id FROM polls WHERE created_by = \(user) ORDER BY id LIMIT 50)
                    RETURNING 1
                ) SELECT count(*)::int FROM gone
                """, logger: logger))
    }

    /// Up to 10 of the feeds they own, as DeleteFeedsBatch deletes them: the follows to and from
    /// them end (counted out of the other feeds), what was posted only there goes.
    private func feeds(of user: String, hard: Bool, logger: Logger) async throws -> Int {
        var fids: [FeedID] = []
        for try await fid in try await client.query(
            "SELECT fid FROM feeds WHERE created_by = \(user) ORDER BY fid LIMIT 10", logger: logger
        ).decode(String.self) { fids.append(try FeedID(fid)) }
        guard !fids.isEmpty else { return 0 }
        _ = try await store.deleteFeeds(
            try FeedDeletion(feeds: fids, hard: hard, purgeOwnerActivities: false), by: .server, logger: logger)
        return fids.count
    }

    /// Up to 50 of the files they uploaded; once none is left, the records of those deleted (a
    /// record a soft-deleted post still links stays, as its attachment does).
    private func files(of user: String, logger: Logger) async throws -> Int {
        var keys: [String] = []
        for try await key in try await client.query(
            "SELECT key FROM cdn_objects WHERE owner_id = \(user) AND state <> 'deleted' ORDER BY key LIMIT 50", logger: logger
        ).decode(String.self) { keys.append(key) }
        guard keys.isEmpty else {
            try await erase(keys)
            return keys.count
        }
        try await client.query(
            """
            DELETE FROM cdn_objects o WHERE owner_id = \(user) AND state = 'deleted'
              AND NOT EXISTS (SELECT 1 FROM attachments t WHERE t.object_key = o.key)
              AND NOT EXISTS (SELECT 1 FROM comment_attachments t WHERE t.object_key = o.key)
            """, logger: logger)
        return 0
    }

    /// The account: pruning clears who they were; hard removes the row and their idempotent
    /// replies, or answers -1 if something of theirs appeared meanwhile. Soft was done by the call.
    private func account(of user: String, _ account: UserErasure.Account, logger: Logger) async throws -> Int {
        switch account {
        case .soft:
            return 0
        case .pruning:
            try await client.query(
                """
                UPDATE users SET name = NULL, image = NULL, custom = '{}', teams = '{}', language = '', updated_at = now()
                WHERE id = \(user)
                """, logger: logger)
            return 0
        case .hard:
            do {
                try await client.transaction(logger: logger) { connection in
                    try await connection.query("DELETE FROM idempotency_keys WHERE principal = \("user:" + user)", logger: logger)
                    try await connection.query("DELETE FROM users WHERE id = \(user)", logger: logger)
                }
                return 0
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23503" {
                logger.notice("the account still had rows pointing at it; erasing again", metadata: ["user": "\(user)"])
                return -1
            }
        }
    }

    private func count(_ rows: PostgresRowSequence) async throws -> Int {
        for try await n in rows.decode(Int.self) { return n }
        return 0
    }
}
