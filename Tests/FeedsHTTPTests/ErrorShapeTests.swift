import FeedsTestSupport
import Foundation
import Testing

@Suite struct ErrorShapeTests {
    @Test func anUnknownRouteIsA404InStreamsShape() async throws {
        try await TestServer.run { server in
            expectAPIError(try await server.api(.GET, "/no/such/route", as: "alice"), status: 404, code: 16)
            expectAPIError(try await server.send(.GET, "/nothing-here"), status: 404, code: 16)
        }
    }

    @Test func aWrongMethodIs405WithAllow() async throws {
        try await TestServer.run { server in
            let reply = try await server.api(.PATCH, "/feeds/activities/query", as: "alice", json: "{}")
            expectAPIError(reply, status: 405, code: 4)
            #expect(reply.headers.first(name: "Allow") == "POST")
            let byID = try await server.api(.POST, "/feeds/activities/abc", as: "alice", json: "{}")
            expectAPIError(byID, status: 405, code: 4)
            #expect(byID.headers.first(name: "Allow") == "DELETE, GET, PATCH, PUT")
        }
    }

    @Test func anUnsupportedMediaTypeIs415() async throws {
        try await TestServer.run { server in
            let reply = try await server.api(
                .POST, "/feeds/activities", as: "alice", headers: [("Content-Type", "text/plain")]
            )
            expectAPIError(reply, status: 415, code: 4)
        }
    }

    /// An `Accept` without JSON is refused before the work is done: the create is not stored.
    @Test func anAcceptWithoutJSONIs406AndNothingIsWritten() async throws {
        try await TestServer.run { server in
            let body = #"{"type":"post","feeds":["user:alice"],"text":"refused"}"#
            for accept in ["text/html", "image/png, text/*", "application/json;q=0"] {
                let refused = try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: [("Accept", accept)])
                expectAPIError(refused, status: 406, code: 4, field: "Accept")
            }
            expectAPIError(try await server.api(.GET, "/app", as: "alice", headers: [("Accept", "text/html")]), status: 406, code: 4)
            let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: "{}")
            #expect(page.body["activities"] == .array([]), "\(page.text)")
            for accept in ["application/json", "*/*", "text/html, application/json;q=0.9", "application/*", "APPLICATION/JSON"] {
                let taken = try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: [("Accept", accept)])
                #expect(taken.status == 201, "\(accept): \(taken.text)")
            }
        }
    }

    @Test func malformedJSONIsA400() async throws {
        try await TestServer.run { server in
            expectAPIError(try await server.api(.POST, "/feeds/activities", as: "alice", json: "{not json"), status: 400, code: 4)
            let wrongType = try await server.api(.POST, "/feeds/activities/query", as: "alice", json: #"{"limit":"ten"}"#)
            expectAPIError(wrongType, status: 400, code: 4, field: "limit")
        }
    }

    @Test func aJSONBodyOverOneMegabyteIs413() async throws {
        try await TestServer.run { server in
            let text = String(repeating: "x", count: 1 << 20)
            let reply = try await server.api(
                .POST, "/feeds/activities", as: "alice", json: #"{"type":"post","feeds":["user:a"],"text":"\#(text)"}"#)
            expectAPIError(reply, status: 413, code: 22)
        }
    }

    @Test func everyErrorCarriesTheRequestID() async throws {
        try await TestServer.run { server in
            let reply = try await server.send(.GET, "/nothing-here", headers: [("x-client-request-id", "trace-me-42")])
            #expect(reply.headers.first(name: "x-client-request-id") == "trace-me-42")
            let generated = try await server.send(.GET, "/healthz")
            #expect(generated.headers.first(name: "x-client-request-id")?.isEmpty == false)
        }
    }
}
