import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

@Suite struct IdempotencyTests {
    let body = #"{"type":"post","feeds":["user:alice"],"text":"once"}"#

    func count(_ server: TestServer, _ table: String) async throws -> Int {
        for try await count in try await server.database.query(
            PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: TestDatabase.logger
        )
        .decode(Int.self) {
            return count
        }
        return -1
    }

    @Test(arguments: Backend.allCases) func aRetriedActivityReturnsTheFirstResponseAndCreatesNothing(backend: Backend)
        async throws
    {
        try await TestServer.run(backend: backend) { server in
            let key = [("Idempotency-Key", "retry-1")]
            let first = try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: key)
            let second = try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: key)
            #expect(first.status == 201 && second.status == 201)
            #expect(second.body["activity"] == first.body["activity"])
            #expect(second.data == first.data, "a replay is the first reply, byte for byte")
            #expect(try await count(server, "activities") == 1)

            let other = try await server.api(
                .POST, "/feeds/activities", as: "alice", json: body.replacingOccurrences(of: "once", with: "twice"), headers: key)
            expectAPIError(other, status: 422, code: 4, field: "Idempotency-Key")

            // Keys belong to their caller: bob's "retry-1" is his own.
            let bob = try await server.api(
                .POST, "/feeds/activities", as: "bob", json: #"{"type":"post","feeds":["user:bob"]}"#, headers: key)
            #expect(bob.status == 201)
            #expect(try await count(server, "activities") == 2)
        }
    }

    @Test(arguments: Backend.allCases) func aFailedRequestDoesNotHoldItsKey(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let key = [("Idempotency-Key", "retry-2")]
            let bad = try await server.api(
                .POST, "/feeds/activities", as: "alice", json: #"{"type":"post","feeds":[]}"#, headers: key)
            expectAPIError(bad, status: 400, code: 4)
            #expect(try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: key).status == 201)
        }
    }

    @Test(arguments: Backend.allCases) func aRetriedUploadStoresOneObject(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            var form = MultipartForm()
            form.add("file", fileName: "a.txt", Data("same bytes\n".utf8))
            let key = [("Idempotency-Key", "upload-1")]
            let first = try await server.upload("/uploads/file", as: "alice", form: form, headers: key)
            let second = try await server.upload("/uploads/file", as: "alice", form: form, headers: key)
            #expect(first.status == 201 && second.status == 201)
            #expect(first.body["file"] == second.body["file"])
            #expect(try await count(server, "cdn_objects") == 1)
            #expect(try await server.storedObjects().count == 1)

            var changed = MultipartForm()
            changed.add("file", fileName: "a.txt", Data("other bytes\n".utf8))
            expectAPIError(
                try await server.upload("/uploads/file", as: "alice", form: changed, headers: key), status: 422, code: 4)
        }
    }

    /// A multipart create (the generated handler) records its reply the other way, as a decoded
    /// response; a retry of it must come back the same too.
    @Test func aRetriedMultipartActivityReturnsTheFirstResponseAndCreatesNothing() async throws {
        try await TestServer.run { server in
            var form = MultipartForm()
            form.add(
                "activity",
                json: #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"file","file":"notes"}]}"#)
            form.add("notes", fileName: "notes.txt", Data("attached\n".utf8))
            let key = [("Idempotency-Key", "multipart-1")]
            let first = try await server.upload("/feeds/activities", as: "alice", form: form, headers: key)
            let second = try await server.upload("/feeds/activities", as: "alice", form: form, headers: key)
            #expect(first.status == 201 && second.status == 201, "\(first.text)")
            #expect(second.body["activity"] == first.body["activity"])
            #expect(try await count(server, "activities") == 1)
            #expect(try await count(server, "cdn_objects") == 1)
        }
    }
}
