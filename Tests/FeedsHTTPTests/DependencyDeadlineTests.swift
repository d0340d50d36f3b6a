import AsyncHTTPClient
import FeedsCore
import FeedsPostgres
import FeedsTestSupport
import Foundation
import Synchronization
import Testing

@testable import FeedsHTTP

/// Every dependency call has a deadline: a database that stops answering costs a request 503 with
/// a Retry-After, not an answer that never comes; `/readyz` says so at once; SIGTERM still stops
/// the server. No assertion here is on time: hang guards of minutes catch what never ends.
@Suite struct DependencyDeadlineTests {
    @Test func workPastItsDeadlineIsAnswered503EvenIfItNeverEnds() async throws {
        let hung = Parked()
        let error = await #expect(throws: FeedsError.self) {
            try await hangGuard("a deadline that never fires", seconds: 120) {
                try await withDeadline(.milliseconds(50), "the hung call") {
                    // A call that ignores cancellation, as a dependency that hangs may.
                    await withCheckedContinuation { continuation in hung.continuation.withLock { $0 = continuation } }
                }
            }
        }
        #expect(error?.kind == .unavailable)
        // Let the hung call end, so that its task does not outlive the test.
        try await eventually("the hung call to start") { hung.continuation.withLock { $0 != nil } }
        hung.continuation.withLock { $0?.resume() }
        #expect(try await withDeadline(.seconds(60), "a quick call") { 42 } == 42)
    }

    @Test func aHungDatabaseGets503WithRetryAfterAndSIGTERMStillStopsTheServer() async throws {
        try await TestServer.run { server in
            let url = try #require(URLComponents(string: server.databaseURL))
            let proxy = try await FreezableProxy(to: url.host ?? "127.0.0.1", port: url.port ?? 5432)
            var through = url
            through.port = proxy.port
            let node = try await FeedsNode(
                databaseURL: try #require(through.string), apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
                port: try freeLoopbackPort(),
                environment: ["FEEDS_REQUEST_TIMEOUT": "2", "FEEDS_DRAIN_TIMEOUT": "3", "FEEDS_DATABASE_CONNECTIONS": "2"])
            defer { node.stop() }
            let token = try await server.token("alice")
            @Sendable func post() async throws -> TestServer.Reply {
                try await TestServer.send(
                    .POST, "\(node.baseURL)/api/v2/feeds/activities?api_key=\(TestServer.apiKey)",
                    body: Data(#"{"type":"post","feeds":["user:alice"]}"#.utf8),
                    headers: [("Authorization", token), ("Stream-Auth-Type", "jwt"), ("Content-Type", "application/json")])
            }
            // The 2 s deadline may also catch a busy machine's first post: it tries again.
            try await eventually("a first post") { try await post().status == 201 }

            proxy.freeze()
            let refused = try await post()
            expectAPIError(refused, status: 503, code: -1)
            #expect(refused.headers["Retry-After"].first == "1")
            // The generated routes (here GetActivity) have the same deadline (`GeneratedTransport`).
            let read = try await TestServer.send(
                .GET, "\(node.baseURL)/api/v2/feeds/activities/some-post?api_key=\(TestServer.apiKey)",
                headers: [("Authorization", token), ("Stream-Auth-Type", "jwt")])
            expectAPIError(read, status: 503, code: -1)
            #expect(read.text.contains("GetActivity"), "\(read.text)")
            let ready = try await TestServer.send(.GET, "\(node.baseURL)/readyz")
            #expect(ready.status == 503, "\(ready.text)")
            // A multipart upload's work after its body has the deadline too (it waited without end).
            try await hangGuard("an upload while the database hangs", seconds: 300) {
                var form = MultipartForm()
                form.add("file", fileName: "hung.txt", Data("hung\n".utf8))
                let upload = try await TestServer.send(
                    .POST, "\(node.baseURL)/api/v2/uploads/file?api_key=\(TestServer.apiKey)", body: form.data,
                    headers: [("Authorization", token), ("Stream-Auth-Type", "jwt"), ("Content-Type", form.contentType)])
                expectAPIError(upload, status: 503, code: -1)
            }

            proxy.thaw()
            try await eventually("writes succeeding again") { try await post().status == 201 }

            // Frozen again, with a request in flight: SIGTERM ends the process all the same.
            proxy.freeze()
            let inFlight = Task { try? await post() }
            try await Task.sleep(for: .milliseconds(200))
            try await node.terminate()
            _ = await inFlight.value
            await proxy.close()
        }
    }
}

/// Where a call that ignores cancellation waits, until the test lets it go.
private final class Parked: Sendable {
    let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)
}

@Suite struct FreezableProxyTests {
    @Test func itRelaysUntilFrozenAndAgainOnceThawed() async throws {
        try await TestServer.run { server in
            let port = try #require(URLComponents(string: server.baseURL)?.port)
            let proxy = try await FreezableProxy(to: "127.0.0.1", port: port)
            let through = "http://127.0.0.1:\(proxy.port)/healthz"
            #expect(try await TestServer.send(.GET, through).status == 200)
            proxy.freeze()
            // Frozen, nothing comes back: the request is still waiting when a second has passed.
            await #expect(throws: FeedsError.self) {
                try await withDeadline(.seconds(1), "a request through the frozen proxy") {
                    try await TestServer.send(.GET, through).status
                }
            }
            proxy.thaw()
            try await eventually("the proxy relaying again") { try await TestServer.send(.GET, through).status == 200 }
            await proxy.close()
        }
    }
}
