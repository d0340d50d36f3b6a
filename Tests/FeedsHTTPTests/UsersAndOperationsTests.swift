import FeedsTestSupport
import Foundation
import Testing

@Suite struct UsersAndOperationsTests {
    @Test func updateUsersUpsertsAndActivitiesEmbedTheUser() async throws {
        try await TestServer.run { server in
            try await server.addActivity(as: "alice")
            let reply = try await server.api(
                .POST, "/users", as: nil,
                json:
                    #"{"users":{"alice":{"id":"alice","name":"Alice","image":"https://example.com/a.png","custom":{"plan":"pro"}},"bob":{"id":"bob"}}}"#
            )
            #expect(reply.status == 201, "\(reply.text)")
            #expect(reply.body["users"]["alice"]["name"].string == "Alice")
            #expect(reply.body["users"]["bob"]["role"].string == "user")
            #expect(reply.body["membership_deletion_task_id"].string != nil)

            let page = try await server.api(.POST, "/feeds/activities/query", as: nil, json: #"{"filter":{"user_id":"alice"}}"#)
            #expect(page.body["activities"][0]["user"]["name"].string == "Alice")
            #expect(page.body["activities"][0]["user"]["custom"]["plan"].string == "pro")

            let mismatched = try await server.api(.POST, "/users", as: nil, json: #"{"users":{"x":{"id":"y"}}}"#)
            expectAPIError(mismatched, status: 400, code: 4, field: "users.x")
        }
    }

    @Test func healthReadinessMetricsAndTheSpecAreServed() async throws {
        try await TestServer.run { server in
            #expect(try await server.send(.GET, "/healthz").body["status"].string == "ok")
            #expect(try await server.send(.GET, "/readyz").body["status"].string == "ready")
            try await server.addActivity(as: "alice")
            let metrics = try await server.send(.GET, "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.text.contains("hb_requests"))
            #expect(metrics.text.contains("/api/v2/feeds/activities"))
            #expect(metrics.text.contains("http_server_request_duration"))
            let spec = try await server.send(.GET, "/openapi.yaml")
            #expect(spec.status == 200)
            #expect(spec.text.contains("operationId: AddActivity"))
        }
    }

    @Test func readinessFailsWhenTheDatabaseIsNotMigrated() async throws {
        try await TestServer.run { server in
            _ = try await server.database.query("DELETE FROM schema_migrations", logger: TestDatabase.logger)
            expectAPIError(try await server.send(.GET, "/readyz"), status: 503, code: -1)
        }
    }
}
