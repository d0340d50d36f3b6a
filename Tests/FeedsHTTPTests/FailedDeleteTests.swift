import FeedsCore
import FeedsHTTP
import FeedsPostgres
import FeedsTestSupport
import FeedsUploads
import Foundation
import PostgresNIO
import Synchronization
import Testing

/// A delete the store refuses is never forgotten: the object's row stays claimed (deleting) until
/// a later delete is confirmed, and a sweep that meets a refusal goes on with the rest.
@Suite struct FailedDeleteTests {
    @Test(arguments: Backend.allCases) func aFailedBatchWhoseDeletesFailKeepsItsRowsForGC(backend: Backend) async throws {
        let store = Mutex<FailingCDN?>(nil)
        try await TestServer.run(
            backend: backend,
            cdn: { inner in
                let cdn = FailingCDN(wrapping: inner, failOnUpload: 2, refusingDeletes: true)
                store.withLock { $0 = cdn }
                return cdn
            }
        ) { server in
            let cdn = try #require(store.withLock { $0 })
            try await server.waitForStartUpSweep()
            var form = MultipartForm()
            form.add(
                "activity",
                json:
                    #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"file","file":"a"},{"type":"file","file":"b"}]}"#
            )
            form.add("a", fileName: "a.txt", Data("a\n".utf8))
            form.add("b", fileName: "b.txt", Data("b\n".utf8))
            expectAPIError(try await server.upload("/feeds/activities", as: "alice", form: form), status: 502, code: -1)

            // Whatever reached the store could not be deleted: the rows of both say so.
            #expect(try await states(server) == ["deleting", "deleting"])
            #expect(try await server.storedObjects().count <= 1)

            // A sweep while the store still refuses: nothing lost, nothing stuck, counted as failed.
            try await age(server)
            let refused = try await sweep(server, through: cdn)
            #expect(refused.failed == 2 && refused.objects == 0)
            #expect(try await states(server) == ["deleting", "deleting"])

            cdn.deletesWork()
            try await age(server)
            let swept = try await sweep(server, through: cdn)
            #expect(swept.objects == 2 && swept.failed == 0)
            #expect(try await states(server) == ["deleted", "deleted"])
            #expect(try await server.storedObjects().isEmpty)
        }
    }

    func states(_ server: TestServer) async throws -> [String] {
        var states: [String] = []
        for try await state in try await server.database.query(
            "SELECT state FROM cdn_objects ORDER BY file_name", logger: TestDatabase.logger
        ).decode(String.self) {
            states.append(state)
        }
        return states
    }

    /// Past the sweeper's retry delay.
    func age(_ server: TestServer) async throws {
        try await server.database.query(
            "UPDATE cdn_objects SET updated_at = now() - interval '1 hour'", logger: TestDatabase.logger)
    }

    /// The server's sweeper, deleting through `cdn`.
    func sweep(_ server: TestServer, through cdn: any CDNClient) async throws -> (objects: Int, failed: Int) {
        let sweeper = ObjectSweeper(
            objects: PostgresObjectStore(client: server.database), cdn: cdn,
            tempDirectory: server.configuration.tempDirectory, unattachedTTL: nil)  // nil: keep unattached uploads
        let report = try await sweeper.sweep(logger: TestDatabase.logger)
        #expect(report.ran)
        return (report.objects, report.failed)
    }
}
