import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// DeleteFeed, DeleteFeedsBatch and ChangeFeedVisibility: each one transaction, with the feed
/// rows locked first (`LOCK-ORDER.md`), so nothing is half-done when one fails.
extension PostgresActivityStore {
    public func deleteFeeds(_ deletion: FeedDeletion, by principal: Principal, logger: Logger) async throws -> DeletedFeeds {
        let fids = deletion.feeds.map(\.description).sorted()
        let before = try await feeds(deletion.feeds, readableBy: nil, logger: logger)
        let (activities, task): ([String], BackgroundTask) = try await client.transaction(logger: logger) { connection in
            let owners = try await Self.lockFeeds(fids, by: principal, on: connection, logger: logger)
            // The activities posted to them: those posted nowhere else (or, purging, their owners')
            // go; the rest are detached from these feeds.
            let rows = try await connection.query(
                """
                SELECT a.id, a.user_id, a.feeds FROM activities a
                WHERE a.id IN (SELECT activity_id FROM activity_feeds WHERE feed = ANY(\(fids)) AND via IS NULL)
                ORDER BY a.id FOR \(unescaped: deletion.hard ? "UPDATE" : "NO KEY UPDATE")
                """, logger: logger)
            let deleted = Set(fids)
            var (removed, detached): ([String], [String]) = ([], [])
            for try await (id, author, feeds) in rows.decode((String, String, [String]).self) {
                let here = feeds.filter(deleted.contains)
                let purged = deletion.purgeOwnerActivities && here.contains { owners[$0] == author }
                if purged || feeds.allSatisfy(deleted.contains) { removed.append(id) } else { detached.append(id) }
            }
            try await Self.remove(removed, hard: deletion.hard, on: connection, logger: logger)
            try await connection.query(
                """
                UPDATE activities SET feeds = ARRAY(SELECT f FROM unnest(feeds) AS f WHERE f <> ALL(\(fids))), updated_at = now()
                WHERE id = ANY(\(detached))
                """, logger: logger)
            try await Self.endFollows(of: fids, on: connection, logger: logger)
            // Their own rows (posts and timeline copies), notifications, then the feeds: follows,
            // members and pins go with them (ON DELETE CASCADE).
            try await connection.query("DELETE FROM activity_feeds WHERE feed = ANY(\(fids))", logger: logger)
            try await connection.query("DELETE FROM notification_groups WHERE feed = ANY(\(fids))", logger: logger)
            try await connection.query("DELETE FROM notification_status WHERE feed = ANY(\(fids))", logger: logger)
            try await connection.query("DELETE FROM feeds WHERE fid = ANY(\(fids))", logger: logger)
            let task = try await Self.recordTask(
                "delete-feeds",
                result: [
                    "deleted_feeds": .number(Double(fids.count)), "deleted_activities": .number(Double(removed.count)),
                    "detached_activities": .number(Double(detached.count)), "hard_delete": .bool(deletion.hard),
                ], on: connection, logger: logger)
            return (removed, task)
        }
        return DeletedFeeds(feeds: before, activities: activities, task: task)
    }

    public func changeVisibility(of id: FeedID, _ change: VisibilityChange, by principal: Principal, logger: Logger)
        async throws -> ChangedVisibility
    {
        let fid = id.description
        let (ended, approved, removedMembers, jobs): ([FollowColumns], [FollowColumns], [String], [Int64]) =
            try await client.transaction(logger: logger) {
                connection in
                let owner = try await Self.lockFeeds([fid], by: principal, on: connection, logger: logger)[fid] ?? ""
                let visibility = change.visibility
                // Tightened: no follower but the owner's own feeds stays where nobody follows.
                var ended: [FollowColumns] = []
                if visibility.followStatus == nil {
                    ended = try await Self.deleteFollows(
                        to: fid, notOwnedBy: owner, pendingOnly: false, on: connection, logger: logger)
                }
                // Loosened: waiting requests are approved (and copied) or turned down.
                var approved: [FollowColumns] = []
                var jobs: [Int64] = []
                if visibility.followStatus == .accepted {
                    if change.approvePending {
                        let rows = try await connection.query(
                            """
                            UPDATE follows SET status = 'accepted', request_accepted_at = now(), updated_at = now()
                            WHERE target_fid = \(fid) AND status = 'pending' RETURNING \(unescaped: FollowColumns.list)
                            """, logger: logger)
                        for try await row in rows { approved.append(try FollowColumns(row)) }
                        var counts: [String: (followers: Int, following: Int)] = [fid: (approved.count, 0)]
                        for follow in approved { counts[follow.source, default: (0, 0)].following += 1 }
                        try await Self.adjust(counts, on: connection, logger: logger)
                        let queued = try await connection.query(
                            """
                            INSERT INTO fanout_jobs (kind, source_fid, feeds, copy_limit)
                            SELECT 'backfill', source_fid, ARRAY[target_fid], copy_limit FROM follows
                            WHERE target_fid = \(fid) AND source_fid = ANY(\(approved.map(\.source))) RETURNING id
                            """, logger: logger)
                        for try await job in queued.decode(Int64.self) { jobs.append(job) }
                    } else {
                        ended += try await Self.deleteFollows(
                            to: fid, notOwnedBy: nil, pendingOnly: true, on: connection, logger: logger)
                    }
                }
                var removedMembers: [String] = []
                if visibility == .private {
                    let rows = try await connection.query(
                        "DELETE FROM feed_members WHERE fid = \(fid) RETURNING user_id", logger: logger)
                    for try await user in rows.decode(String.self) { removedMembers.append(user) }
                }
                try await connection.query(
                    "UPDATE feeds SET visibility = \(visibility.rawValue), updated_at = now() WHERE fid = \(fid)", logger: logger)
                return (ended, approved, removedMembers.sorted(), jobs)
            }
        if !jobs.isEmpty, jobs.count <= FollowInput.copiedBeforeAnswer {
            do { try await Fanout(client: client).run(jobs, logger: logger) } catch {
                logger.warning("copying into timelines failed; the fan-out workers retry", metadata: ["error": "\(error)"])
            }
        }
        let ids = Set((ended + approved).flatMap { [$0.source, $0.target] } + [fid])
        let feeds = try await self.feeds(try ids.map { try FeedID($0) }, readableBy: nil, logger: logger)
        let byID = Dictionary(uniqueKeysWithValues: feeds.map { ($0.id.description, $0) })
        guard let feed = byID[fid] else { throw FeedsError.notFound("feed \(id) does not exist") }
        // An ended follow's source may itself be gone by now; such a follow has nobody to tell.
        let follows = { (columns: [FollowColumns]) in columns.compactMap { try? $0.follow(feeds: byID) } }
        return ChangedVisibility(
            feed: feed, ended: follows(ended), approved: follows(approved), removedMembers: removedMembers)
    }

    // MARK: - Parts

    /// Locks `fids` (sorted) for a change by `principal`, who must own each of them unless it is the
    /// server; all must exist. Returns each feed's owner.
    private static func lockFeeds(_ fids: [String], by principal: Principal, on connection: PostgresConnection, logger: Logger)
        async throws -> [String: String]
    {
        let rows = try await connection.query(
            "SELECT fid, created_by FROM feeds WHERE fid = ANY(\(fids)) ORDER BY fid FOR UPDATE", logger: logger)
        var owners: [String: String] = [:]
        for try await (fid, owner) in rows.decode((String, String).self) { owners[fid] = owner }
        if let missing = fids.first(where: { owners[$0] == nil }) {
            throw FeedsError.notFound("feed \(missing) does not exist")
        }
        if let user = principal.userID, let other = fids.first(where: { owners[$0] != user }) {
            throw FeedsError.notAllowed("only \(other)'s owner or the server may change or delete it; \(user) does not own it")
        }
        return owners
    }

    /// Ends the follows from and to feeds about to be deleted: the counts of the feeds on their
    /// other side, and what they copied into timelines that stay.
    private static func endFollows(of fids: [String], on connection: PostgresConnection, logger: Logger) async throws {
        let rows = try await connection.query(
            """
            SELECT source_fid, target_fid FROM follows
            WHERE status = 'accepted' AND (target_fid = ANY(\(fids)) <> (source_fid = ANY(\(fids))))
              AND (target_fid = ANY(\(fids)) OR source_fid = ANY(\(fids)))
            ORDER BY source_fid, target_fid FOR UPDATE
            """, logger: logger)
        let deleted = Set(fids)
        var counts: [String: (followers: Int, following: Int)] = [:]
        var followersLeft: [(String, String)] = []
        for try await (source, target) in rows.decode((String, String).self) {
            if deleted.contains(target) {
                counts[source, default: (0, 0)].following -= 1
                followersLeft.append((source, target))
            } else {
                counts[target, default: (0, 0)].followers -= 1
            }
        }
        try await adjust(counts, on: connection, logger: logger)
        try await connection.query(
            "DELETE FROM follows WHERE target_fid = ANY(\(fids)) OR source_fid = ANY(\(fids))", logger: logger)
        for (source, target) in followersLeft {
            try await removeCopies(in: try FeedID(source), via: try FeedID(target), on: connection, logger: logger)
        }
    }

    /// Deletes follows of `fid`: those of feeds not `owner`'s (nil: anyone's), only pending ones
    /// if `pendingOnly`; fixes the counts and takes back what they copied.
    private static func deleteFollows(
        to fid: String, notOwnedBy owner: String?, pendingOnly: Bool, on connection: PostgresConnection, logger: Logger
    ) async throws -> [FollowColumns] {
        let rows = try await connection.query(
            """
            DELETE FROM follows w WHERE w.target_fid = \(fid) AND (NOT \(pendingOnly) OR w.status = 'pending')
              AND (\(owner)::text IS NULL OR EXISTS (SELECT 1 FROM feeds s WHERE s.fid = w.source_fid AND s.created_by <> \(owner)))
            RETURNING \(unescaped: FollowColumns.list(alias: "w"))
            """, logger: logger)
        var ended: [FollowColumns] = []
        for try await row in rows { ended.append(try FollowColumns(row)) }
        var counts: [String: (followers: Int, following: Int)] = [:]
        for follow in ended where follow.status == .accepted {
            counts[fid, default: (0, 0)].followers -= 1
            counts[follow.source, default: (0, 0)].following -= 1
        }
        try await adjust(counts, on: connection, logger: logger)
        let target = try FeedID(fid)
        for follow in ended.sorted(by: { $0.source < $1.source }) where follow.status == .accepted {
            try await removeCopies(in: try FeedID(follow.source), via: target, on: connection, logger: logger)
        }
        return ended
    }
}
