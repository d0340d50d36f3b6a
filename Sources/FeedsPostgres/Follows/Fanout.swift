import FeedsCore
import Logging
import PostgresNIO

/// Copies activities into the timelines that follow their feeds, from the work queued in
/// `fanout_jobs` by the writes that made it (a post, an accepted follow). Jobs are claimed with
/// `FOR UPDATE SKIP LOCKED`, so any number of nodes share them; a claim, its copies and its
/// removal commit together, so a node that dies mid-job leaves it to the next claim; copies are
/// idempotent (the key of `activity_feeds`), so nothing is copied twice. Each job step is a
/// transaction of its own: a job that fails is tried again later (`maxAttempts` times, the waits
/// growing), then set aside, and never holds the others back.
public struct Fanout: Sendable {
    let client: PostgresClient
    /// Followers a post is copied to per job step: a feed with 100,000 followers takes 20 steps,
    /// each a transaction of its own that other workers' steps run beside.
    public static let chunk = 5000
    /// Tries of a failing job before it is set aside (`failed_at`).
    public static let maxAttempts = 5

    public init(client: PostgresClient) {
        self.client = client
    }

    /// One job as claimed.
    struct Job {
        var id: Int64
        var kind: String
        var activityID: String?
        var feeds: [String]
        var sourceFID: String?
        var copyLimit: Int?
        var after: String
    }

    /// Does one step of up to `limit` ready jobs, each in its own transaction; returns how many it ran.
    @discardableResult
    public func runBatch(limit: Int = 50, logger: Logger) async throws -> Int {
        var ran = 0
        while ran < limit, try await runOne(nil, logger: logger) { ran += 1 }
        return ran
    }

    /// Runs the jobs named to their end, waiting for any a worker holds: a follow answers once its
    /// copy is done, whoever does it. A job that fails is left to the workers' retries.
    public func run(_ ids: [Int64], logger: Logger) async throws {
        for id in ids {
            while try await runOne(id, logger: logger) {}
        }
    }

    /// A job's step that failed, with the job's id.
    struct StepFailed: Error {
        let id: Int64
        let error: any Error
    }

    /// Claims one ready job (or the one named) and does one step of it in a transaction of its
    /// own; false when there is none. A failed step is recorded against its job after the rollback.
    private func runOne(_ named: Int64?, logger: Logger) async throws -> Bool {
        do {
            return try await client.transaction(logger: logger) { connection in
                let columns = "id, kind, activity_id, feeds, source_fid, copy_limit, after"
                let claim: PostgresQuery =
                    if let named {
                        "SELECT \(unescaped: columns) FROM fanout_jobs WHERE id = \(named) AND failed_at IS NULL FOR UPDATE"
                    } else {
                        """
                        SELECT \(unescaped: columns) FROM fanout_jobs WHERE failed_at IS NULL AND not_before <= now()
                        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
                        """
                    }
                var claimed: Job?
                for try await (id, kind, activity, feeds, source, copyLimit, after) in try await connection.query(
                    claim, logger: logger
                ).decode((Int64, String, String?, [String], String?, Int32?, String).self) {
                    claimed = Job(
                        id: id, kind: kind, activityID: activity, feeds: feeds, sourceFID: source,
                        copyLimit: copyLimit.map(Int.init), after: after)
                }
                guard let job = claimed else { return false }
                do {
                    if let next = try await step(job, on: connection, logger: logger) {
                        try await connection.query("UPDATE fanout_jobs SET after = \(next) WHERE id = \(job.id)", logger: logger)
                    } else {
                        try await connection.query("DELETE FROM fanout_jobs WHERE id = \(job.id)", logger: logger)
                    }
                } catch let error as PSQLError where error.isConflict {
                    // A deadlock rolled the step back: `transaction` runs it again at once (`ConflictRetry`).
                    throw error
                } catch {
                    throw StepFailed(id: job.id, error: error)
                }
                return true
            }
        } catch let failed as StepFailed {
            if failed.error is CancellationError || Task.isCancelled { throw failed.error }
            try await recordFailure(failed, logger: logger)
            // The failed job does not end a named run: its retries are the workers'.
            return named == nil
        }
    }

    /// Counts a failed try: the job waits 2^attempts seconds (at most five minutes) before the
    /// next, and after `maxAttempts` it is set aside with its error.
    private func recordFailure(_ failed: StepFailed, logger: Logger) async throws {
        let message = String(String(reflecting: failed.error).prefix(1000))
        let rows = try await client.query(
            """
            UPDATE fanout_jobs SET attempts = attempts + 1,
                not_before = now() + least(interval '1 second' * power(2, attempts), interval '5 minutes'),
                failed_at = CASE WHEN attempts + 1 >= \(Self.maxAttempts) THEN now() END, last_error = \(message)
            WHERE id = \(failed.id) RETURNING attempts, failed_at IS NOT NULL
            """, logger: logger)
        for try await (attempts, setAside) in rows.decode((Int, Bool).self) {
            let metadata: Logger.Metadata = ["job": "\(failed.id)", "attempts": "\(attempts)", "error": "\(message)"]
            if setAside {
                logger.error("fan-out job set aside after its last try", metadata: metadata)
            } else {
                logger.warning("fan-out job failed; it is tried again later", metadata: metadata)
            }
        }
    }

    /// Does one step of `job`; returns where the next step starts, or nil when the job is done.
    private func step(_ job: Job, on connection: PostgresConnection, logger: Logger) async throws -> String? {
        switch job.kind {
        case "post":
            guard let activity = job.activityID else { return nil }
            // The next chunk of accepted followers of the activity's feeds, each copied once
            // (an activity in two feeds a timeline follows is one entry in it). Their follows are
            // held FOR SHARE until the copies commit: an unfollow (or a rejection) waits, then
            // removes what was copied; one that committed first leaves its row out of the chunk.
            let rows = try await connection.query(
                """
                WITH held AS (
                    SELECT w.source_fid, w.target_fid FROM follows w
                    WHERE w.target_fid = ANY(\(job.feeds)) AND w.status = 'accepted' AND w.source_fid > \(job.after)
                    ORDER BY w.source_fid, w.target_fid LIMIT \(Self.chunk) FOR SHARE
                ), chunk AS (
                    SELECT DISTINCT ON (source_fid) source_fid, target_fid FROM held ORDER BY source_fid, target_fid
                ), copied AS (
                    INSERT INTO activity_feeds (feed, created_at, activity_id, via)
                    SELECT c.source_fid, a.created_at, a.id, c.target_fid
                    FROM chunk c JOIN activities a ON a.id = \(activity) AND \(unescaped: ActivityLive.predicate("a"))
                    ON CONFLICT DO NOTHING
                )
                SELECT max(source_fid), count(*)::int FROM held
                """,
                logger: logger)
            for try await (last, count) in rows.decode((String?, Int).self) where count == Self.chunk {
                return last
            }
            return nil
        case "backfill":
            guard let source = job.sourceFID, let target = job.feeds.first else { return nil }
            try await Self.backfill(
                source: source, target: target, limit: job.copyLimit ?? FollowInput.maxCopyLimit, on: connection, logger: logger)
            return nil
        default:
            logger.warning("unknown fan-out job dropped", metadata: ["id": "\(job.id)", "kind": "\(job.kind)"])
            return nil
        }
    }

    /// Copies the newest `limit` public and tagged activities posted to `target` into `source`, if it still
    /// follows it; the follow is held until the copies commit, as a post's copies hold theirs.
    static func backfill(source: String, target: String, limit: Int, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.query(
            """
            INSERT INTO activity_feeds (feed, created_at, activity_id, via)
            SELECT \(source), x.created_at, x.activity_id, \(target) FROM (
                SELECT af.created_at, af.activity_id FROM activity_feeds af JOIN activities a ON a.id = af.activity_id
                WHERE af.feed = \(target) AND af.via IS NULL AND \(unescaped: ActivityLive.predicate("a")) AND a.visibility IN ('public', 'tag')
                ORDER BY af.created_at DESC, af.activity_id DESC LIMIT \(limit)
            ) x
            WHERE EXISTS (
                SELECT 1 FROM follows WHERE source_fid = \(source) AND target_fid = \(target) AND status = 'accepted' FOR SHARE)
            ON CONFLICT DO NOTHING
            """,
            logger: logger)
    }

    /// Jobs waiting (not set aside), for tests and metrics.
    public func pending(logger: Logger) async throws -> Int {
        for try await count in try await client.query(
            "SELECT count(*)::int FROM fanout_jobs WHERE failed_at IS NULL", logger: logger
        ).decode(Int.self) {
            return count
        }
        return 0
    }
}
