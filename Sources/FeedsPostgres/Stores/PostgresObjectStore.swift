import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `ObjectStore` on PostgreSQL: the `cdn_objects` table. Every change of state is one conditional
/// UPDATE, so two nodes (or a sweep and a request) can never both move the same object.
public struct PostgresObjectStore: ObjectStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func reserve(_ objects: [ObjectRecord], logger: Logger) async throws {
        guard !objects.isEmpty else { return }
        try await client.committed(logger: logger) { connection in
            _ = try await connection.query(
                """
                INSERT INTO cdn_objects (key, kind, owner_id, file_name, mime_type, size, sha256, width, height, media, state)
                SELECT k, kind, NULLIF(o, ''), f, m, s, h, NULLIF(w, -1), NULLIF(ht, -1), NULLIF(md, '')::jsonb, 'reserved'
                FROM unnest(\(objects.map(\.key.rawValue))::text[], \(objects.map(\.kind.rawValue))::text[],
                            \(objects.map { $0.ownerID ?? "" })::text[], \(objects.map(\.fileName))::text[],
                            \(objects.map(\.mimeType))::text[], \(objects.map(\.size))::bigint[], \(objects.map(\.sha256))::text[],
                            \(objects.map { $0.width ?? -1 })::integer[], \(objects.map { $0.height ?? -1 })::integer[],
                            \(try objects.map(Self.mediaJSON))::text[])
                    AS x(k, kind, o, f, m, s, h, w, ht, md)
                """,
                logger: logger
            )
        }
    }

    public func markStored(_ keys: [ObjectKey], recording: IdempotentRecord<Void>? = nil, logger: Logger) async throws {
        try await client.transaction(logger: logger) { connection in
            try await connection.query(
                """
                UPDATE cdn_objects SET state = 'stored', updated_at = now()
                WHERE key = ANY(\(keys.map(\.rawValue))) AND state = 'reserved'
                """,
                logger: logger
            )
            if let recording { try await PostgresIdempotencyStore.record(recording, of: (), on: connection, logger: logger) }
        }
    }

    public func forget(_ keys: [ObjectKey], logger: Logger) async throws {
        try await client.committed(logger: logger) { connection in
            _ = try await connection.query(
                "DELETE FROM cdn_objects WHERE key = ANY(\(keys.map(\.rawValue))) AND state IN ('reserved', 'deleting')",
                logger: logger
            )
        }
    }

    public func objects(_ keys: [ObjectKey], logger: Logger) async throws -> [ObjectKey: ObjectRecord] {
        let rows = try await client.query(
            "SELECT \(unescaped: Self.columns) FROM cdn_objects WHERE key = ANY(\(keys.map(\.rawValue)))", logger: logger
        )
        var found: [ObjectKey: ObjectRecord] = [:]
        for try await row in rows {
            if let record = try Self.decode(row) { found[record.key] = record }
        }
        return found
    }

    public func claimForDeletion(_ keys: [ObjectKey], logger: Logger) async throws -> [ObjectRecord] {
        // The rows as they were: a CTE reads the old state of the rows the update takes.
        try await client.committed(logger: logger) { connection in
            let rows = try await connection.query(
                """
                WITH old AS (
                    SELECT \(unescaped: Self.columns) FROM cdn_objects
                    WHERE key = ANY(\(keys.map(\.rawValue))) AND state <> 'deleted' FOR UPDATE
                ), claimed AS (
                    UPDATE cdn_objects c SET state = 'deleting', updated_at = now() FROM old WHERE c.key = old.key
                )
                SELECT * FROM old
                """,
                logger: logger
            )
            var records: [ObjectRecord] = []
            for try await row in rows {
                if let record = try Self.decode(row) { records.append(record) }
            }
            return records
        }
    }

    public func markDeleted(_ keys: [ObjectKey], logger: Logger) async throws {
        try await client.committed(logger: logger) { connection in
            _ = try await connection.query(
                """
                UPDATE cdn_objects SET state = 'deleted', updated_at = now()
                WHERE key = ANY(\(keys.map(\.rawValue))) AND state = 'deleting'
                """,
                logger: logger
            )
        }
    }

    public func claimSweepable(
        pendingTTL: Duration, unattachedTTL: Duration?, releasedTTL: Duration, retryAfter: Duration, limit: Int,
        logger: Logger
    ) async throws -> [ObjectKey] {
        // Rows are locked as they are picked (SKIP LOCKED), and PostgreSQL checks the condition
        // again on the locked row: an attach that committed meanwhile keeps its object.
        var binds = Self.sweepableBinds(pendingTTL, unattachedTTL, releasedTTL, retryAfter)
        binds.append(limit)
        let rows = try await client.query(
            PostgresQuery(
                unsafeSQL: """
                    UPDATE cdn_objects SET state = 'deleting', updated_at = now(),
                        delete_attempts = delete_attempts + (CASE WHEN state = 'deleting' THEN 1 ELSE 0 END)
                    WHERE key IN (
                        SELECT key FROM cdn_objects WHERE \(Self.sweepablePredicate)
                        ORDER BY updated_at LIMIT $5
                        FOR UPDATE SKIP LOCKED
                    )
                    RETURNING key
                    """, binds: binds),
            logger: logger
        )
        var keys: [ObjectKey] = []
        for try await raw in rows.decode(String.self) {
            if let key = ObjectKey(rawValue: raw) { keys.append(key) }
        }
        return keys
    }

    public func sweepable(
        pendingTTL: Duration, unattachedTTL: Duration?, releasedTTL: Duration, retryAfter: Duration, logger: Logger
    ) async throws -> [ObjectRecord.State: ObjectTotals] {
        let rows = try await client.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT state, count(*), coalesce(sum(size), 0)::bigint, min(updated_at) FROM cdn_objects
                    WHERE \(Self.sweepablePredicate) GROUP BY state
                    """,
                binds: Self.sweepableBinds(pendingTTL, unattachedTTL, releasedTTL, retryAfter)),
            logger: logger
        )
        return try await Self.totals(rows)
    }

    /// Rows of (state, objects, bytes) as totals by state.
    static func totals(_ rows: PostgresRowSequence) async throws -> [ObjectRecord.State: ObjectTotals] {
        var totals: [ObjectRecord.State: ObjectTotals] = [:]
        for try await (state, objects, bytes, oldest) in rows.decode((String, Int64, Int64, Date).self) {
            if let state = ObjectRecord.State(rawValue: state) {
                totals[state] = ObjectTotals(objects: objects, bytes: bytes, oldest: oldest)
            }
        }
        return totals
    }

    /// What a sweep claims, in one place for the sweep and its preview: reserved older than $1
    /// seconds, stored older than $2 (NULL keeps them), released older than $3, deleting older than $4.
    static let sweepablePredicate = """
        ((state = 'reserved' AND updated_at < now() - $1 * interval '1 second')
           OR (state = 'stored' AND $2::float8 IS NOT NULL AND updated_at < now() - $2::float8 * interval '1 second')
           OR (state = 'released' AND updated_at < now() - $3 * interval '1 second')
           OR (state = 'deleting' AND updated_at < now() - $4 * interval '1 second'))
        """

    static func sweepableBinds(
        _ pendingTTL: Duration, _ unattachedTTL: Duration?, _ releasedTTL: Duration, _ retryAfter: Duration
    ) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(seconds(pendingTTL))
        binds.append(unattachedTTL.map(seconds))
        binds.append(seconds(releasedTTL))
        binds.append(seconds(retryAfter))
        return binds
    }

    public func exclusively(logger: Logger, _ body: @Sendable () async throws -> Void) async throws -> Bool {
        // A lease, not a session lock: nothing is held on a connection while `body` runs, and
        // claims are atomic anyway, so a sweep that outlives its lease and overlaps another is safe.
        let holder = UUID().uuidString
        var leased = false
        for try await _ in try await client.query(
            """
            UPDATE sweep_lease SET holder = \(holder), until = now() + \(Self.seconds(Self.sweepLease)) * interval '1 second'
            WHERE id = 1 AND until < now() RETURNING true
            """,
            logger: logger
        ) {
            leased = true
        }
        guard leased else { return false }
        let release = {
            try await client.query(
                "UPDATE sweep_lease SET until = '-infinity' WHERE id = 1 AND holder = \(holder)", logger: logger)
        }
        do {
            try await body()
        } catch {
            _ = try? await release()
            throw error
        }
        _ = try await release()
        return true
    }

    /// How long one node may sweep before another may start.
    static let sweepLease: Duration = .seconds(600)

    static let columns = "key, kind, owner_id, file_name, mime_type, size, sha256, width, height, state, media::text"

    /// A record's `media` as the column's JSON; empty for none.
    static func mediaJSON(_ record: ObjectRecord) throws -> String {
        guard let media = record.media else { return "" }
        return String(decoding: try JSONEncoder().encode(media), as: UTF8.self)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func decode(_ row: PostgresRow) throws -> ObjectRecord? {
        record(try row.decode((String, String, String?, String, String, Int64, String, Int?, Int?, String, String?).self))
    }

    /// A record from the values of `columns`, in order; nil when one is not of our form.
    static func record(_ c: (String, String, String?, String, String, Int64, String, Int?, Int?, String, String?))
        -> ObjectRecord?
    {
        guard let key = ObjectKey(rawValue: c.0), let kind = ObjectRecord.Kind(rawValue: c.1),
            let state = ObjectRecord.State(rawValue: c.9)
        else { return nil }
        return ObjectRecord(
            key: key, kind: kind, ownerID: c.2, fileName: c.3, mimeType: c.4, size: c.5, sha256: c.6, width: c.7,
            height: c.8, media: c.10.flatMap { try? JSONDecoder().decode(ObjectRecord.Media.self, from: Data($0.utf8)) },
            state: state
        )
    }
}
