import FeedsCore
import FeedsHTTP
import FeedsTestSupport
import FeedsUploads
import Foundation
import PostgresNIO
import Testing

@testable import FeedsServer

/// Helpers for the attachment-lifecycle tests: object keys, their rows, gc.
extension TestServer {
    /// The object key in one of our signed URLs: its path after `/cdn/`, percent-decoded, before `?`.
    func objectKey(of url: String) throws -> String {
        let path = try #require(URLComponents(string: url)?.path, "not a URL: \(url)")
        try #require(path.hasPrefix("/cdn/"), "not one of our CDN URLs: \(url)")
        return String(path.dropFirst("/cdn/".count))
    }

    /// `cdn_objects.state` of `key`, or nil when there is no row.
    func state(of key: String) async throws -> String? {
        let rows = try await database.query("SELECT state FROM cdn_objects WHERE key = \(key)", logger: TestDatabase.logger)
        for try await state in rows.decode(String.self) { return state }
        return nil
    }

    /// One integer a query returns (a count).
    func number(_ query: PostgresQuery) async throws -> Int {
        for try await value in try await database.query(query, logger: TestDatabase.logger).decode(Int.self) {
            return value
        }
        throw DatabaseFailure("the query returned no row: \(query.sql)")
    }

    /// The `object_key` of each of an activity's attachments, in order (nil: no object).
    func attachmentKeys(of activityID: String) async throws -> [String?] {
        let rows = try await database.query(
            "SELECT object_key FROM attachments WHERE activity_id = \(activityID) ORDER BY position",
            logger: TestDatabase.logger)
        var keys: [String?] = []
        for try await key in rows.decode(String?.self) { keys.append(key) }
        return keys
    }

    /// Makes gc consider `key` old: past the pending, unattached and released TTLs.
    func age(_ key: String) async throws {
        _ = try await database.query(
            "UPDATE cdn_objects SET updated_at = now() - interval '48 hours' WHERE key = \(key)", logger: TestDatabase.logger)
    }

    /// One gc sweep over this server's database and store, as `feeds gc` runs it, once the
    /// server's own start-up sweep is over.
    @discardableResult
    func sweep() async throws -> ObjectSweeper.Report {
        try await waitForStartUpSweep()
        var database = try TestDatabase.serverConfiguration()
        for try await name in try await self.database.query("SELECT current_database()", logger: TestDatabase.logger)
            .decode(String.self)
        {
            database.database = name
        }
        return try await sweepOnce(configuration, database: database, logger: TestDatabase.logger)
    }

    /// Waits until the sweep the server runs as it starts is over (it is recorded then): a sweep
    /// of the test's own while that one holds the sweep's lock would not run. A hang guard.
    func waitForStartUpSweep() async throws {
        try await eventually("the server's start-up sweep") {
            try await number("SELECT count(*)::int FROM gc_runs WHERE trigger = 'schedule'") > 0
        }
    }

    /// Sweeps, as if past the retry delay each time, until no object is left in `deleting`: a
    /// delete of a busy store may time out once and be tried again (a hang guard, not a deadline).
    func sweepUntilNothingIsDeleting() async throws {
        try await eventually("gc finishing the objects left in deleting") {
            try await database.query(
                "UPDATE cdn_objects SET updated_at = now() - interval '2 hours' WHERE state = 'deleting'",
                logger: TestDatabase.logger)
            try await sweep()
            return try await number("SELECT count(*)::int FROM cdn_objects WHERE state = 'deleting'") == 0
        }
    }

    /// Uploads `data` as `user` to `/uploads/file` (or `/uploads/image`); expects 201 and returns the URL.
    func uploadFile(
        as user: String, name: String = "notes.txt", _ data: Data = Data("some notes\n".utf8), to path: String = "/uploads/file",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        var form = MultipartForm()
        form.add("file", fileName: name, data)
        let reply = try await upload(path, as: user, form: form)
        #expect(reply.status == 201, "\(reply.text)", sourceLocation: sourceLocation)
        return try #require(reply.body["file"].string, sourceLocation: sourceLocation)
    }

    /// Whether the store still holds `key`'s bytes.
    func stores(_ key: String) async throws -> Bool {
        try await storedObjects().contains { $0 == key || $0.hasSuffix("/" + key) }
    }

    /// Whether the server answers its health check.
    func isHealthy() async -> Bool {
        (try? await send(.GET, "/healthz"))?.status == 200
    }
}

/// `value` URL-encoded for a query parameter.
func queryEncoded(_ value: String) -> String {
    value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
}
