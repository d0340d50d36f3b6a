import FeedsCore
import FeedsTestSupport
import Foundation
import PostgresNIO
import Synchronization
import Testing

/// An object store that stops answering (connections open, nothing comes back) costs a request a
/// 504 with a Retry-After within the store's timeout, never a wait without end; what the hung
/// calls may have stored is found by gc once the store answers again. No assertion is on time.
@Suite struct HungStoreTests {
    @Test func aHungStoreIs504AndLeavesNothingOnceItAnswersAgain() async throws {
        let endpoint = try TestBucket.configuration(bucket: "unused").endpoint
        let proxy = try await FreezableProxy(to: endpoint.host ?? "127.0.0.1", port: endpoint.port ?? 80)
        var through = try #require(URLComponents(url: endpoint, resolvingAgainstBaseURL: false))
        through.port = proxy.port
        let proxied = try #require(through.url)
        try await TestServer.run(
            backend: .s3,
            configure: {
                $0.s3?.endpoint = proxied
                $0.s3?.timeout = .seconds(2)
            }
        ) { server in
            // A busy machine's store may miss the 2 s timeout too: the upload is tried again.
            let kept = try await Self.upload(server, "kept.txt")
            let keptQuery = "&url=\(kept.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"

            proxy.freeze()
            try await hangGuard("a post with a file while the store hangs", seconds: 300) {
                var form = MultipartForm()
                form.add(
                    "activity",
                    json: #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"file","file":"f"}]}"#)
                form.add("f", fileName: "hung.txt", Data(repeating: 7, count: 64 << 10))
                let reply = try await server.upload("/feeds/activities", as: "alice", form: form)
                expectAPIError(reply, status: 504, code: -1)
                #expect(reply.headers["Retry-After"].first == "1")

                // A delete the store never answers keeps the row, so it is tried again.
                let delete = try await server.api(.DELETE, "/uploads/file", as: "alice", query: keptQuery)
                expectAPIError(delete, status: 504, code: -1)
                #expect(try await server.state(of: try server.objectKey(of: kept)) == "deleting")
            }
            #expect(try await server.number("SELECT count(*)::int FROM activities") == 0)

            // The hung sessions are cut, as a store restart would; a reply lost while the bytes
            // still land is `LateLandingUploadTests`.
            await proxy.cutConnections()
            proxy.thaw()
            _ = try await Self.upload(server, "after.txt")
            // Past the retry delay, gc deletes what the hung calls left, and only that (again if a
            // delete of a busy store times out).
            try await server.sweepUntilNothingIsDeleting()
            #expect(try await server.stores(try server.objectKey(of: kept)) == false)
            // Every object in the bucket has a live row; the rest were deleted, none left behind.
            let live = try await server.number("SELECT count(*)::int FROM cdn_objects WHERE state <> 'deleted'")
            #expect(try await server.sweep().orphans == 0)
            #expect(try await server.storedObjects().count == live)
            #expect(server.uploadTempFiles.isEmpty, "left in tmp: \(server.uploadTempFiles)")
            await proxy.close()
        }
    }

    /// Uploads a file as alice until the store takes it; its URL.
    static func upload(_ server: TestServer, _ name: String) async throws -> String {
        var building = MultipartForm()
        building.add("file", fileName: name, Data("\(name)\n".utf8))
        let form = building
        let url = Mutex<String?>(nil)
        try await eventually("\(name) uploaded") {
            let reply = try? await server.upload("/uploads/file", as: "alice", form: form)
            guard reply?.status == 201, let file = reply?.body["file"].string else { return false }
            url.withLock { $0 = file }
            return true
        }
        return try #require(url.withLock { $0 })
    }
}
