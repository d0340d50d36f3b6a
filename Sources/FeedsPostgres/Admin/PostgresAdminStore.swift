import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `AdminStore` on PostgreSQL: reads of `cdn_objects`, `app_settings_audit` and `gc_runs`.
public struct PostgresAdminStore: AdminStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func uploads(_ filter: UploadFilter, limit: Int, logger: Logger) async throws -> [UploadListing] {
        let states = filter.state.map { $0.states.map(\.rawValue) }
        let rows = try await client.query(
            """
            SELECT \(unescaped: PostgresObjectStore.columns), created_at,
                (extract(epoch FROM created_at) * 1000000)::bigint,
                (SELECT a.activity_id FROM attachments a WHERE a.object_key = cdn_objects.key LIMIT 1),
                (SELECT c.comment_id FROM comment_attachments c WHERE c.object_key = cdn_objects.key LIMIT 1)
            FROM cdn_objects
            WHERE (\(filter.owner)::text IS NULL OR owner_id = \(filter.owner))
              AND (\(filter.kind?.rawValue)::text IS NULL OR kind = \(filter.kind?.rawValue))
              AND (\(states)::text[] IS NULL OR state = ANY(\(states)))
              AND (\(filter.before?.createdMicros)::bigint IS NULL
                   OR (created_at, key) < (to_timestamp(\(filter.before?.createdMicros)::bigint / 1000000.0), \(filter.before?.key)))
            ORDER BY created_at DESC, key DESC
            LIMIT \(limit)
            """,
            logger: logger
        )
        var listings: [UploadListing] = []
        for try await c in rows.decode(
            (String, String, String?, String, String, Int64, String, Int?, Int?, String, String?, Date, Int64, String?, String?)
                .self)
        {
            guard let record = PostgresObjectStore.record((c.0, c.1, c.2, c.3, c.4, c.5, c.6, c.7, c.8, c.9, c.10)) else {
                continue
            }
            listings.append(
                UploadListing(record: record, createdAt: c.11, createdMicros: c.12, activityID: c.13, commentID: c.14))
        }
        return listings
    }

    public func storageTotals(logger: Logger) async throws -> [ObjectRecord.State: ObjectTotals] {
        let rows = try await client.query(
            "SELECT state, count(*), coalesce(sum(size), 0)::bigint, min(updated_at) FROM cdn_objects GROUP BY state",
            logger: logger)
        return try await PostgresObjectStore.totals(rows)
    }

    public func settingsAudit(limit: Int, logger: Logger) async throws -> [SettingsAuditEntry] {
        let rows = try await client.query(
            "SELECT version, changed_at, actor, changes FROM app_settings_audit ORDER BY version DESC LIMIT \(limit)",
            logger: logger)
        var entries: [SettingsAuditEntry] = []
        for try await (version, at, actor, changes) in rows.decode((Int64, Date, String, [String]).self) {
            entries.append(SettingsAuditEntry(version: version, changedAt: at, actor: actor, changes: changes))
        }
        return entries
    }

    public func record(_ run: GCRun, logger: Logger) async throws {
        try await client.transaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO gc_runs (trigger, started_at, finished_at, ran, objects, failed, temp_files, idempotency_keys,
                                     orphans, error)
                VALUES (\(run.trigger.rawValue), \(run.startedAt), \(run.finishedAt), \(run.ran), \(run.objects), \(run.failed),
                        \(run.tempFiles), \(run.idempotencyKeys), \(run.orphans), \(run.error))
                """,
                logger: logger
            )
            try await connection.query(
                "DELETE FROM gc_runs WHERE id <= (SELECT max(id) FROM gc_runs) - \(GCRun.kept)", logger: logger)
        }
    }

    public func gcRuns(limit: Int, logger: Logger) async throws -> [GCRun] {
        let rows = try await client.query(
            """
            SELECT trigger, started_at, finished_at, ran, objects, failed, temp_files, idempotency_keys, orphans, error
            FROM gc_runs ORDER BY id DESC LIMIT \(limit)
            """,
            logger: logger
        )
        var runs: [GCRun] = []
        for try await c in rows.decode((String, Date, Date, Bool, Int, Int, Int, Int, Int, String?).self) {
            runs.append(
                GCRun(
                    trigger: GCRun.Trigger(rawValue: c.0) ?? .schedule, startedAt: c.1, finishedAt: c.2, ran: c.3, objects: c.4,
                    failed: c.5, tempFiles: c.6, idempotencyKeys: c.7, orphans: c.8, error: c.9))
        }
        return runs
    }
}
