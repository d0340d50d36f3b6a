import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// The webhook outbox's statements (`webhook_outbox`, `webhook_lanes`): what publishers write,
/// what dispatchers claim and settle, what the admin console lists and retries.
public struct PostgresWebhookOutbox: WebhookDeliveries {
    let client: PostgresClient
    /// How long an event is retried for, from its publishing or an admin's retry.
    let retryFor: Duration
    /// The most one statement may take, a connection's wait included: a pool that lost its
    /// database may hold a request without end, and the outbox's loops must go on.
    static let deadline = Duration.seconds(10)

    public init(client: PostgresClient, retryFor: Duration = .seconds(86_400)) {
        (self.client, self.retryFor) = (client, retryFor)
    }

    /// `work` within `deadline`.
    private func run<T: Sendable>(_ work: @escaping @Sendable (PostgresClient) async throws -> T) async throws -> T {
        try await withDeadline(Self.deadline, orThrow: { FeedsError(.unavailable, "the webhook outbox did not answer in time") }) {
            [client] in try await work(client)
        }
    }

    /// An event for one hook, on its way in.
    public struct Entry: Sendable, Equatable {
        /// `X-Webhook-Id`, chosen once: an insert tried again cannot write the event twice.
        public var webhookID: String
        public var lane: String
        public var hookID: String
        public var eventType: String
        public var body: String
    }

    /// A row as its lane's holder reads it, in id order.
    public struct Pending: Sendable {
        public var delivery: WebhookDelivery
        public var hookID: String
        /// Whether its next attempt is due (a retried row waits out its backoff).
        public var due: Bool
    }

    /// Writes `entries` (and their lanes, once), retried until `retryFor` after now.
    func enqueue(_ entries: [Entry], logger: Logger) async throws {
        _ = try await run { client in
            try await client.query(
                """
                WITH added AS (
                    INSERT INTO webhook_outbox (webhook_id, lane, hook_id, event_type, body, give_up_at)
                    SELECT x.id::uuid, x.lane, x.hook, x.type, x.body, now() + \(Self.seconds(retryFor)) * interval '1 second'
                    FROM unnest(\(entries.map(\.webhookID))::text[], \(entries.map(\.lane))::text[], \(entries.map(\.hookID))::text[],
                                \(entries.map(\.eventType))::text[], \(entries.map(\.body))::text[])
                        WITH ORDINALITY AS x(id, lane, hook, type, body, n)
                    ORDER BY x.n
                    ON CONFLICT (webhook_id) DO NOTHING
                    RETURNING lane
                )
                INSERT INTO webhook_lanes (lane) SELECT DISTINCT lane FROM added ON CONFLICT DO NOTHING
                """, logger: logger)
        }
    }

    /// Takes up to `limit` lanes no node holds whose first row is due, for `lease`.
    func claim(holder: String, limit: Int, lease: Duration, logger: Logger) async throws -> [String] {
        try await run { client in
            let rows = try await client.query(
                """
                UPDATE webhook_lanes l SET held_by = \(holder), held_until = now() + \(Self.seconds(lease)) * interval '1 second'
                WHERE l.lane IN (
                    SELECT c.lane FROM webhook_lanes c
                    WHERE (c.held_until IS NULL OR c.held_until < now())
                      AND (SELECT o.next_attempt_at <= now() FROM webhook_outbox o
                           WHERE o.lane = c.lane AND o.failed_at IS NULL ORDER BY o.id LIMIT 1)
                    LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                RETURNING l.lane
                """, logger: logger)
            var lanes: [String] = []
            for try await lane in rows.decode(String.self) { lanes.append(lane) }
            return lanes
        }
    }

    /// The first `limit` rows of a lane still to deliver, in order.
    func head(of lane: String, limit: Int, logger: Logger) async throws -> [Pending] {
        try await run { client in
            let rows = try await client.query(
                """
                SELECT id, webhook_id::text, body, attempts, hook_id, next_attempt_at <= now()
                FROM webhook_outbox WHERE lane = \(lane) AND failed_at IS NULL ORDER BY id LIMIT \(limit)
                """, logger: logger)
            var pending: [Pending] = []
            for try await (id, webhookID, body, attempts, hookID, due) in rows.decode((Int64, String, String, Int, String, Bool).self) {
                pending.append(
                    Pending(
                        delivery: WebhookDelivery(id: id, webhookID: webhookID, body: Array(body.utf8), attempt: attempts + 1),
                        hookID: hookID, due: due))
            }
            return pending
        }
    }

    /// Removes what was delivered (or is for a hook no longer there), and renews the lane's hold;
    /// false when another node holds it now (this one stops).
    func acknowledge(_ ids: [Int64], lane: String, holder: String, lease: Duration, logger: Logger) async throws -> Bool {
        try await run { client in
            let rows = try await client.query(
                """
                WITH gone AS (DELETE FROM webhook_outbox WHERE id = ANY(\(ids)))
                UPDATE webhook_lanes SET held_until = now() + \(Self.seconds(lease)) * interval '1 second'
                WHERE lane = \(lane) AND held_by = \(holder) RETURNING lane
                """, logger: logger)
            for try await _ in rows.decode(String.self) { return true }
            return false
        }
    }

    /// A failed attempt: tried again after `backoff` (doubling from 1 s, at most `maxBackoff`)
    /// until its time is up, then failed; a refusal fails it at once. True when it is failed now.
    func failed(
        _ id: Int64, error: String, retry: Bool, maxBackoff: Duration, logger: Logger
    ) async throws -> Bool {
        let rows = try await client.query(
            """
            UPDATE webhook_outbox SET attempts = attempts + 1, last_error = \(String(error.prefix(500))),
                next_attempt_at = now() + least(\(Self.seconds(maxBackoff)), power(2, least(attempts, 20))) * interval '1 second',
                failed_at = CASE WHEN NOT \(retry) OR now() >= give_up_at THEN now() END
            WHERE id = \(id) RETURNING failed_at IS NOT NULL
            """, logger: logger)
        for try await done in rows.decode(Bool.self) { return done }
        return true
    }

    /// Lets the lane go, for any node to take when it has work again.
    func release(_ lane: String, holder: String, logger: Logger) async throws {
        _ = try await run { client in
            try await client.query(
                "UPDATE webhook_lanes SET held_by = NULL, held_until = NULL WHERE lane = \(lane) AND held_by = \(holder)",
                logger: logger)
        }
    }

    /// Failed rows older than `keep` go, and pending rows of hooks not in `hooks` that were
    /// written over ten minutes ago (a node hears of a new hook within moments).
    func expire(keep: Duration, hooks: [String], logger: Logger) async throws {
        _ = try await run { client in
            try await client.query(
                """
                DELETE FROM webhook_outbox
                WHERE (failed_at IS NOT NULL AND failed_at < now() - \(Self.seconds(keep)) * interval '1 second')
                   OR (hook_id <> ALL(\(hooks)) AND created_at < now() - interval '10 minutes')
                """, logger: logger)
        }
    }

    public func summary(logger: Logger) async throws -> WebhookSummary {
        try await run { client in
            let rows = try await client.query(
                """
                SELECT count(*) FILTER (WHERE failed_at IS NULL), count(*) FILTER (WHERE failed_at IS NOT NULL),
                    min(created_at) FILTER (WHERE failed_at IS NULL),
                    (SELECT event_type || ' ' || attempts || ' ' || last_error FROM webhook_outbox
                     WHERE failed_at IS NULL AND last_error IS NOT NULL ORDER BY id LIMIT 1)
                FROM webhook_outbox
                """, logger: logger)
            for try await (pending, failed, oldest, retrying) in rows.decode((Int, Int, Date?, String?).self) {
                let parts = retrying?.split(separator: " ", maxSplits: 2).map(String.init) ?? []
                return WebhookSummary(
                    pending: pending, failed: failed, oldestPending: oldest,
                    retrying: parts.count == 3 ? .init(eventType: parts[0], attempts: Int(parts[1]) ?? 0, error: parts[2]) : nil)
            }
            return WebhookSummary(pending: 0, failed: 0, oldestPending: nil, retrying: nil)
        }
    }

    /// The newest failed rows, at most `limit`.
    public func failed(limit: Int, logger: Logger) async throws -> [FailedWebhook] {
        try await run { client in
            let rows = try await client.query(
                """
                SELECT id, hook_id, event_type, attempts, coalesce(last_error, ''), created_at, failed_at
                FROM webhook_outbox WHERE failed_at IS NOT NULL ORDER BY failed_at DESC, id DESC LIMIT \(limit)
                """, logger: logger)
            var failed: [FailedWebhook] = []
            for try await (id, hook, type, attempts, error, created, at) in rows.decode((Int64, String, String, Int, String, Date, Date).self) {
                failed.append(FailedWebhook(id: id, hookID: hook, eventType: type, attempts: attempts, error: error, createdAt: created, failedAt: at))
            }
            return failed
        }
    }

    /// Failed rows (these, or all when nil) are pending again, retried for another `retryFor`;
    /// returns how many.
    public func retry(_ ids: [Int64]?, logger: Logger) async throws -> Int {
        try await run { client in
            let rows = try await client.query(
                """
                WITH again AS (
                    UPDATE webhook_outbox SET failed_at = NULL, next_attempt_at = now(),
                        give_up_at = now() + \(Self.seconds(retryFor)) * interval '1 second'
                    WHERE failed_at IS NOT NULL AND (\(ids == nil) OR id = ANY(\(ids ?? [])))
                    RETURNING 1
                )
                SELECT count(*) FROM again
                """, logger: logger)
            for try await count in rows.decode(Int.self) { return count }
            return 0
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
