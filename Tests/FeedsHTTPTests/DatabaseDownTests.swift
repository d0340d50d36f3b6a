import FeedsCore
import FeedsPostgres
import FeedsTestSupport
import Foundation
import Testing

/// With PostgreSQL refusing connections, a request is refused at once with 503 and Retry-After,
/// not after its deadline: the node's probe finds the database down. The node reaches PostgreSQL
/// through a proxy that, refusing, closes every connection as a stopped server would (a real stop
/// and restart is `DatabaseRestartTests`; restarting on the same port here raced other tests for
/// it). The request deadline is ten minutes, so on code without the probe the create waits it
/// out and the hang guard fails; nothing measures time.
@Suite struct DatabaseDownTests {
    @Test func aRefusingDatabaseIsAnswered503AtOnceAndServedAgainOnceItIsBack() async throws {
        try await TestServer.run { server in
            var database = try #require(URLComponents(string: server.databaseURL))
            let proxy = try await FreezableProxy(to: database.host ?? "127.0.0.1", port: database.port ?? 5432)
            database.port = proxy.port
            let node = try await FeedsNode(
                databaseURL: try #require(database.string), apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
                port: try freeLoopbackPort(), environment: ["FEEDS_REQUEST_TIMEOUT": "600", "FEEDS_DRAIN_TIMEOUT": "5"])
            defer { node.stop() }
            let token = try await server.token("alice")
            @Sendable func post() async throws -> TestServer.Reply {
                try await TestServer.send(
                    .POST, "\(node.baseURL)/api/v2/feeds/activities?api_key=\(TestServer.apiKey)",
                    body: Data(#"{"type":"post","feeds":["user:alice"],"text":"hi"}"#.utf8),
                    headers: [("Authorization", token), ("Stream-Auth-Type", "jwt"), ("Content-Type", "application/json")])
            }
            #expect(try await post().status == 201)

            await proxy.refuse()
            try await hangGuard("requests while the database refuses connections", seconds: 300) {
                try await eventually("the node finding the database down") {
                    try await TestServer.send(.GET, "\(node.baseURL)/readyz").text.contains("the database is down")
                }
                let refused = try await post()
                expectAPIError(refused, status: 503, code: -1)
                #expect(refused.headers["Retry-After"].first == "1")
                #expect(refused.body["message"].string?.contains("the database is down") == true, "\(refused.text)")
            }

            proxy.admit()
            try await eventually("posts served again") { try await post().status == 201 }
            try await node.terminate()
            await proxy.close()
        }
    }
}
