import FeedsCore
import FeedsPostgres
import FeedsTestSupport
import Foundation
import Testing

/// With PostgreSQL stopped, a request is refused at once with 503 and Retry-After, not after its
/// deadline: the node's probe finds the server refusing connections. The request deadline here is
/// ten minutes, so on code without the probe the create waits it out and the hang guard fails;
/// nothing measures time. The node has a cluster of its own, so stopping it touches no other test.
@Suite struct DatabaseDownTests {
    @Test func aStoppedDatabaseIsRefusedAtOnceAndServedAgainOnceItIsBack() async throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("feeds-pg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try await EmbeddedPostgres.start(in: directory, logger: TestDatabase.logger)
        do {
            try await stopAndStart(cluster, in: directory)
        } catch {
            try? await cluster.stop()
            throw error
        }
        try await cluster.stop()
    }

    func stopAndStart(_ cluster: EmbeddedPostgres, in directory: URL) async throws {
        let database = cluster.configuration
        let port = try #require(database.port)
        let password = try #require(database.password)
        let url = "postgres://\(database.username):\(password)@127.0.0.1:\(port)/postgres?sslmode=disable"

        try await TestServer.run { server in
            let node = try await FeedsNode(
                databaseURL: url, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret, port: try freeLoopbackPort(),
                environment: ["FEEDS_REQUEST_TIMEOUT": "600", "FEEDS_DRAIN_TIMEOUT": "5"])
            defer { node.stop() }
            let token = try await server.token("alice")
            @Sendable func post() async throws -> TestServer.Reply {
                try await TestServer.send(
                    .POST, "\(node.baseURL)/api/v2/feeds/activities?api_key=\(TestServer.apiKey)",
                    body: Data(#"{"type":"post","feeds":["user:alice"],"text":"hi"}"#.utf8),
                    headers: [("Authorization", token), ("Stream-Auth-Type", "jwt"), ("Content-Type", "application/json")])
            }
            #expect(try await post().status == 201)

            try await cluster.stop(immediately: true)
            try await hangGuard("requests while the database is down", seconds: 300) {
                try await eventually("the node finding the database down") {
                    try await TestServer.send(.GET, "\(node.baseURL)/readyz").text.contains("the database is down")
                }
                let refused = try await post()
                expectAPIError(refused, status: 503, code: -1)
                #expect(refused.headers["Retry-After"].first == "1")
                #expect(refused.body["message"].string?.contains("the database is down") == true, "\(refused.text)")
            }

            _ = try await EmbeddedPostgres.start(in: directory, port: port, logger: TestDatabase.logger)
            try await eventually("posts served again") { try await post().status == 201 }
            try await node.terminate()
        }
    }
}
