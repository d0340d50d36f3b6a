import FeedsCore
import FeedsHTTP
import FeedsPostgres
import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

@testable import FeedsServer

/// The reply of an idempotent create is recorded by the create's own transaction, a claim whose
/// request died is taken over after its lease, and old keys are swept.
@Suite struct IdempotencyRecordTests {
    @Test func theReplyIsRecordedByTheWritesTransaction() async throws {
        try await TestServer.run { server in
            let keys = PostgresIdempotencyStore(client: server.database)
            let activities = PostgresActivityStore(client: server.database)
            let logger = TestDatabase.logger
            #expect(
                try await keys.claim(principal: "server", key: "k1", requestHash: "h", lease: .seconds(60), logger: logger)
                    == .claimed)
            let draft = try ActivityDraft(
                id: "idem-1", type: "post", userID: "alice", text: "once", feeds: ["user:alice"], visibility: nil,
                visibilityTag: nil, restrictReplies: nil, custom: nil, attachments: nil)
            let record = IdempotentRecord<Activity>(principal: "server", key: "k1") { Array("reply for \($0.id)".utf8) }
            _ = try await activities.addActivity(draft, by: .server, recording: record, logger: logger)
            // No `complete`: the transaction recorded it.
            #expect(
                try await keys.claim(principal: "server", key: "k1", requestHash: "h", lease: .seconds(60), logger: logger)
                    == .replay(status: 201, body: Array("reply for idem-1".utf8)))

            // A write that fails records nothing, and leaves its claim to be released.
            #expect(
                try await keys.claim(principal: "server", key: "k2", requestHash: "h", lease: .seconds(60), logger: logger)
                    == .claimed)
            await #expect(throws: FeedsError.self) {
                _ = try await activities.addActivity(
                    draft, by: .server, recording: IdempotentRecord(principal: "server", key: "k2") { _ in [1] }, logger: logger)
            }
            #expect(
                try await keys.claim(principal: "server", key: "k2", requestHash: "h", lease: .seconds(60), logger: logger)
                    == .inFlight)
        }
    }

    @Test func aClaimWhoseRequestDiedIsTakenOverAfterItsLease() async throws {
        try await TestServer.run { server in
            let body = #"{"type":"post","feeds":["user:alice"],"text":"after a crash"}"#
            let key = [("Idempotency-Key", "crashed-1")]
            #expect(try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: key).status == 201)
            // As if the process had died after claiming the key, before writing anything.
            try await server.database.query(
                "UPDATE idempotency_keys SET status = NULL, response = NULL, lease_until = now() + interval '1 hour'",
                logger: TestDatabase.logger)
            try await server.database.query("DELETE FROM activities", logger: TestDatabase.logger)
            let held = try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: key)
            expectAPIError(held, status: 409, code: 4, field: "Idempotency-Key")

            try await server.database.query(
                "UPDATE idempotency_keys SET lease_until = now() - interval '1 second'", logger: TestDatabase.logger)
            let retried = try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: key)
            #expect(retried.status == 201, "\(retried.text)")
            let replayed = try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: key)
            #expect(replayed.data == retried.data)
            #expect(try await count(server, "SELECT count(*) FROM activities") == 1)
        }
    }

    @Test func gcPurgesKeysPastTheirDay() async throws {
        try await TestServer.run { server in
            let key = [("Idempotency-Key", "old-1")]
            let body = #"{"type":"post","feeds":["user:alice"]}"#
            #expect(try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: key).status == 201)
            #expect(
                try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: [("Idempotency-Key", "new-1")])
                    .status == 201)
            try await server.database.query(
                "UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old-1'",
                logger: TestDatabase.logger)
            try await server.waitForStartUpSweep()
            var database = try TestDatabase.serverConfiguration()
            database.database = try await currentDatabase(server)
            let report = try await sweepOnce(server.configuration, database: database, logger: TestDatabase.logger)
            #expect(report.idempotencyKeys == 1)
            #expect(try await count(server, "SELECT count(*) FROM idempotency_keys") == 1)
        }
    }

    func count(_ server: TestServer, _ sql: String) async throws -> Int {
        for try await count in try await server.database.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
            .decode(Int.self)
        {
            return count
        }
        return -1
    }

    func currentDatabase(_ server: TestServer) async throws -> String {
        for try await name in try await server.database.query("SELECT current_database()", logger: TestDatabase.logger)
            .decode(String.self)
        {
            return name
        }
        throw TestDatabase.Unavailable()
    }
}
