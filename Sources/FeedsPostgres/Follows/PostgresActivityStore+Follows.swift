import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `FollowStore` on PostgreSQL: the `follows` table, the counts on `feeds`, and the copies in
/// `activity_feeds` that make timelines (`Fanout`).
extension PostgresActivityStore {
    /// What a permission check needs of a feed.
    struct FeedAccess {
        var owner: String
        var visibility: FeedVisibility
    }

    public func follow(_ inputs: [FollowInput], by principal: Principal, logger: Logger) async throws
        -> [(follow: Follow, created: Bool)]
    {
        let inputs = FollowInput.bounded(inputs)
        let (pairs, jobs) = try await client.transaction(logger: logger) { connection in
            // A follow from one's own built-in feed never read before makes it, as Stream does (its
            // docs call `timeline.follow(…)` on a timeline never fetched): for its owner, with its
            // group's defaults. Anyone else's feed, or a custom group's, must exist already.
            try await Self.ensureOwnFeeds(FollowInput.sourcesMadeOnFollow(inputs, by: principal), on: connection, logger: logger)
            let access = try await Self.access(Set(inputs.flatMap { [$0.source, $0.target] }), on: connection, logger: logger)
            // Who may follow what is the app's (`FeedGrants`), read in the follow's transaction.
            var grants = FeedGrants.defaults
            if principal.userID != nil { grants = try await PostgresAppSettingsStore.readGrants(on: connection, logger: logger) }
            var pairs: [(source: String, target: String, created: Bool)] = []
            var jobs: [Int64] = []
            var counts: [String: (followers: Int, following: Int)] = [:]
            for input in inputs {
                let (source, target) = (try Self.feed(input.source, in: access), try Self.feed(input.target, in: access))
                let status = try await Self.status(
                    of: input, source: source, target: target, by: principal, grants: grants, on: connection, logger: logger)
                if principal.userID != nil, source.owner != target.owner {
                    try await Self.refuseBlocked(input, source.owner, target.owner, on: connection, logger: logger)
                }
                let inserted = try await connection.query(
                    """
                    INSERT INTO follows (source_fid, target_fid, status, push_preference, custom, copy_limit)
                    VALUES (\(input.source.description), \(input.target.description), \(status.rawValue),
                            \(input.pushPreference ?? "none"), \(JSONText.encode(input.custom ?? [:]))::jsonb,
                            \(input.copyLimit ?? FollowInput.maxCopyLimit))
                    ON CONFLICT (source_fid, target_fid) DO NOTHING RETURNING true
                    """, logger: logger)
                var created = false
                for try await _ in inserted { created = true }
                pairs.append((input.source.description, input.target.description, created))
                guard created, status == .accepted else { continue }
                counts[input.target.description, default: (0, 0)].followers += 1
                counts[input.source.description, default: (0, 0)].following += 1
                jobs.append(try await Self.queueBackfill(input.source, input.target, on: connection, logger: logger))
            }
            try await Self.adjust(counts, on: connection, logger: logger)
            return (pairs, jobs)
        }
        await copyNow(jobs, logger: logger)
        let follows = try await self.follows(pairs.map { ($0.source, $0.target) }, logger: logger)
        return pairs.compactMap { pair in follows[pair.source + " " + pair.target].map { ($0, pair.created) } }
    }

    public func unfollow(source: FeedID, target: FeedID, keepHistory: Bool, by principal: Principal, logger: Logger)
        async throws -> Follow
    {
        let ended = try await unfollow(
            [UnfollowPair(source: source, target: target, keepHistory: keepHistory)], skipMissing: false, by: principal,
            logger: logger)
        guard let follow = ended.first else { throw FeedsError.notFound("\(source) does not follow \(target)") }
        return follow
    }

    public func answer(
        source: FeedID, target: FeedID, accept: Bool, followerRole: String?, by principal: Principal, logger: Logger
    ) async throws -> Follow {
        let job: Int64? = try await client.transaction(logger: logger) { connection in
            let access = try await Self.access([source, target], on: connection, logger: logger)
            _ = try Self.feed(source, in: access)
            let targetFeed = try Self.feed(target, in: access)
            if let user = principal.userID, user != targetFeed.owner,
                try await !Self.manages(.manageFollowers, target, user: user, on: connection, logger: logger)
            {
                throw FeedsError.notAllowed(
                    "only \(target)'s owner (or a member the app lets manage its followers) answers its follow requests")
            }
            let change =
                accept
                ? "status = 'accepted', request_accepted_at = now()" : "status = 'rejected', request_rejected_at = now()"
            // A request is answered either way; an accepted follow may still be rejected, which
            // removes the follower (as Stream's RejectFollow does after AcceptFollow).
            let answerable = accept ? ["pending"] : ["pending", "accepted"]
            let rows = try await connection.query(
                """
                UPDATE follows w SET \(unescaped: change), updated_at = now(),
                    follower_role = coalesce(\(followerRole), w.follower_role)
                FROM (SELECT status FROM follows WHERE source_fid = \(source.description) AND target_fid = \(target.description)
                      FOR UPDATE) was
                WHERE w.source_fid = \(source.description) AND w.target_fid = \(target.description)
                  AND w.status = ANY(\(answerable))
                RETURNING was.status
                """, logger: logger)
            var answered: String?
            for try await status in rows.decode(String.self) { answered = status }
            guard let answered else {
                throw FeedsError.notFound("there is no pending request from \(source) to follow \(target)")
            }
            guard accept else {
                if answered == "accepted" {
                    try await Self.adjust(
                        [target.description: (-1, 0), source.description: (0, -1)], on: connection, logger: logger)
                    try await Self.removeCopies(in: source, via: target, on: connection, logger: logger)
                }
                return nil
            }
            try await Self.adjust([target.description: (1, 0), source.description: (0, 1)], on: connection, logger: logger)
            return try await Self.queueBackfill(source, target, on: connection, logger: logger)
        }
        await copyNow(job.map { [$0] } ?? [], logger: logger)
        let follows = try await self.follows([(source.description, target.description)], logger: logger)
        guard let follow = follows[source.description + " " + target.description] else {
            throw FeedsError.notFound("\(source) does not follow \(target)")
        }
        return follow
    }

    // MARK: - Parts

    /// The follows of `pairs` that exist, with their feeds, by "source target".
    func follows(_ pairs: [(String, String)], logger: Logger) async throws -> [String: Follow] {
        guard !pairs.isEmpty else { return [:] }
        let rows = try await reads.query(
            """
            SELECT \(unescaped: FollowColumns.list) FROM follows
            JOIN unnest(\(pairs.map(\.0)), \(pairs.map(\.1))) AS p(s, t) ON source_fid = p.s AND target_fid = p.t
            """, logger: logger)
        var columns: [FollowColumns] = []
        for try await row in rows { columns.append(try FollowColumns(row)) }
        let ids = Set(columns.flatMap { [$0.source, $0.target] })
        let feeds = try await self.feeds(try ids.map { try FeedID($0) }, readableBy: nil, logger: logger)
        let byID = Dictionary(uniqueKeysWithValues: feeds.map { ($0.id.description, $0) })
        var follows: [String: Follow] = [:]
        for column in columns { follows[column.source + " " + column.target] = try column.follow(feeds: byID) }
        return follows
    }

    /// Runs the copies a change queued at once, so the follower's timeline has them when the
    /// reply comes; a failure leaves them queued for the workers.
    private func copyNow(_ jobs: [Int64], logger: Logger) async {
        // A large batch answers at once and leaves its copies to the workers: its request must not
        // hold a connection for minutes, nor one transaction write a million rows.
        guard !jobs.isEmpty, jobs.count <= FollowInput.copiedBeforeAnswer else { return }
        do {
            try await Fanout(client: client).run(jobs, logger: logger)
        } catch {
            logger.warning("copying into a timeline failed; the fan-out workers retry", metadata: ["error": "\(error)"])
        }
    }

    private static func queueBackfill(_ source: FeedID, _ target: FeedID, on connection: PostgresConnection, logger: Logger)
        async throws -> Int64
    {
        let rows = try await connection.query(
            """
            INSERT INTO fanout_jobs (kind, source_fid, feeds, copy_limit)
            SELECT 'backfill', source_fid, ARRAY[target_fid], copy_limit FROM follows
            WHERE source_fid = \(source.description) AND target_fid = \(target.description)
            RETURNING id
            """, logger: logger)
        for try await id in rows.decode(Int64.self) { return id }
        throw FeedsError(.internal, "no follow to copy for \(source) → \(target)")
    }

    /// Removes what `via` copied into `feed`, then copies back what another followed feed holds too.
    static func removeCopies(in feed: FeedID, via: FeedID, on connection: PostgresConnection, logger: Logger) async throws {
        var removed: [String] = []
        let rows = try await connection.query(
            """
            DELETE FROM activity_feeds WHERE feed = \(feed.description) AND via = \(via.description) RETURNING activity_id
            """, logger: logger)
        for try await id in rows.decode(String.self) { removed.append(id) }
        guard !removed.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO activity_feeds (feed, created_at, activity_id, via)
            SELECT DISTINCT ON (af.activity_id) \(feed.description), af.created_at, af.activity_id, af.feed
            FROM activity_feeds af
            JOIN follows w ON w.target_fid = af.feed AND w.source_fid = \(feed.description) AND w.status = 'accepted'
            WHERE af.via IS NULL AND af.activity_id = ANY(\(removed))
            ORDER BY af.activity_id, af.feed
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    /// Adds to follower and following counts, one statement for all feeds.
    static func adjust(
        _ counts: [String: (followers: Int, following: Int)], on connection: PostgresConnection, logger: Logger
    ) async throws {
        guard !counts.isEmpty else { return }
        let fids = counts.keys.sorted()
        try await connection.query(
            """
            UPDATE feeds f SET follower_count = f.follower_count + d.followers, following_count = f.following_count + d.following
            FROM unnest(\(fids), \(fids.map { counts[$0]!.followers }), \(fids.map { counts[$0]!.following }))
                AS d(fid, followers, following)
            WHERE f.fid = d.fid
            """, logger: logger)
    }

    /// Whether `user` may do `action` (update, manageFollowers) on `feed` as one of its members,
    /// by the app's grants (`FeedManaged`).
    static func manages(_ action: FeedAction, _ feed: FeedID, user: String, on connection: PostgresConnection, logger: Logger)
        async throws -> Bool
    {
        var bind = SQLBinds()
        let (fid, member) = (try bind(feed.description), try bind(user))
        let sql = "SELECT 1 FROM feeds f WHERE f.fid = \(fid) AND \(FeedManaged.predicate(action, feed: "f", user: member))"
        for try await _ in try await connection.query(bind.query(sql), logger: logger) { return true }
        return false
    }

    /// Owner and visibility of each of `ids` that exists.
    static func access(_ ids: Set<FeedID>, on connection: PostgresConnection, logger: Logger) async throws
        -> [String: FeedAccess]
    {
        let rows = try await connection.query(
            "SELECT fid, created_by, visibility FROM feeds WHERE fid = ANY(\(ids.map(\.description)))", logger: logger)
        var access: [String: FeedAccess] = [:]
        for try await (fid, owner, visibility) in rows.decode((String, String, String).self) {
            access[fid] = FeedAccess(owner: owner, visibility: FeedVisibility(rawValue: visibility) ?? .visible)
        }
        return access
    }

    static func feed(_ id: FeedID, in access: [String: FeedAccess]) throws -> FeedAccess {
        guard let feed = access[id.description] else {
            throw FeedsError.notFound("feed \(id) does not exist; create it with GetOrCreateFeed")
        }
        return feed
    }

    /// A user follows no feed of someone who blocked them or whom they blocked (`Unblocked`).
    private static func refuseBlocked(
        _ input: FollowInput, _ follower: String, _ owner: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        var bind = SQLBinds()
        let (a, b) = (try bind(follower), try bind(owner))
        let rows = try await connection.query(bind.query("SELECT 1 WHERE NOT \(Unblocked.predicate(a, b))"), logger: logger)
        for try await _ in rows {
            throw FeedsError.notAllowed("\(input.source) may not follow \(input.target): one of their owners blocked the other")
        }
    }

    /// The status a new follow starts with, or why it may not be made: a user follows from their
    /// own feeds, into feeds the app lets users (or members, when they are one) follow.
    private static func status(
        of input: FollowInput, source: FeedAccess, target: FeedAccess, by principal: Principal, grants: FeedGrants,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> Follow.Status {
        guard let user = principal.userID else {
            return input.status ?? target.visibility.followStatus ?? .accepted
        }
        guard user == source.owner else {
            throw FeedsError.notAllowed("\(user) may follow only from their own feeds; \(input.source) is \(source.owner)'s")
        }
        if user == target.owner { return .accepted }
        if let status = grants.followStatus(.stranger, target.visibility) { return status }
        if let status = grants.followStatus(.member, target.visibility) {
            let rows = try await connection.query(
                """
                SELECT 1 FROM feed_members
                WHERE fid = \(input.target.description) AND user_id = \(user) AND status = 'member'
                """, logger: logger)
            for try await _ in rows { return status }
        }
        let who = grants.allows(.follow, .member, target.visibility) ? "its owner and its members" : "only its owner"
        throw FeedsError.notAllowed("\(input.target) is \(target.visibility.rawValue): \(who) may follow it, not \(user)")
    }
}
