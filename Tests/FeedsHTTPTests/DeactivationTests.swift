import FeedsCore
import FeedsHTTP
import FeedsLoadTest
import FeedsPostgres
import FeedsTestSupport
import Foundation
import Testing

/// DeactivateUser(s) and ReactivateUser(s): a deactivated user's tokens are refused and their
/// sockets closed, on this node at once and on another by notification; what they posted stays.
@Suite struct DeactivationTests {
    @Test func aDeactivatedUserIsLockedOutUntilReactivated() async throws {
        try await TestServer.run { server in
            let post = try #require(try await server.addActivity(as: "alice", text: "still here")["id"].string)
            let (socket, _, _) = try await server.connected("alice")
            let deactivated = try await server.api(.POST, "/users/alice/deactivate", as: nil, json: "{}")
            #expect(deactivated.status == 201, "\(deactivated.text)")
            #expect(deactivated.body["user"]["id"].string == "alice" && deactivated.body["user"]["deactivated_at"] != .null)
            #expect(try await socket.closeCode() == 1008)
            expectAPIError(try await server.api(.GET, "/feeds/activities/\(post)", as: "alice"), status: 403, code: 17)
            let refused = try await Inbox(try await server.socket("alice").0).next()
            #expect(refused["type"].string == "connection.error", "\(refused)")
            // What they posted stays; others are not touched.
            let read = try await server.api(.GET, "/feeds/activities/\(post)", as: "bob")
            #expect(read.status == 200 && read.body["activity"]["text"].string == "still here", "\(read.text)")
            // Deactivating again keeps the first time.
            let again = try await server.api(.POST, "/users/alice/deactivate", as: nil, json: "{}")
            #expect(again.body["user"]["deactivated_at"] == deactivated.body["user"]["deactivated_at"], "\(again.text)")
            let back = try await server.api(.POST, "/users/alice/reactivate", as: nil, json: "{}")
            #expect(back.status == 201 && back.body["user"]["deactivated_at"] == .null, "\(back.text)")
            // This node took the change at once, but a reload it heard of earlier (the deactivation's
            // notification) may read the database before the reactivation committed; the
            // reactivation's own notification then sets it right.
            try await eventually("alice's token accepted again") {
                try await server.api(.GET, "/feeds/activities/\(post)", as: "alice").status == 200
            }
            let (socketAgain, _, _) = try await server.connected("alice")
            try await socketAgain.hangUp()
        }
    }

    @Test func batchesAnswerWithATaskAndChangeAllOrNone() async throws {
        try await TestServer.run { server in
            for user in ["ann", "ben"] { _ = try await server.addActivity(as: user) }
            let made = try await server.api(.POST, "/users/deactivate", as: nil, json: #"{"user_ids":["ann","ben"]}"#)
            #expect(made.status == 201, "\(made.text)")
            let task = try await server.api(.GET, "/tasks/\(try #require(made.body["task_id"].string))", as: nil)
            #expect(task.body["status"].string == "completed", "\(task.text)")
            #expect(task.body["result"]["user_ids"].array.compactMap(\.string) == ["ann", "ben"], "\(task.text)")
            for user in ["ann", "ben"] { expectAPIError(try await server.api(.POST, "/feeds/activities/query", as: user, json: "{}"), status: 403, code: 17) }
            // One unknown user: nothing changes.
            expectAPIError(
                try await server.api(.POST, "/users/reactivate", as: nil, json: #"{"user_ids":["ann","nobody"]}"#), status: 404, code: 16)
            expectAPIError(try await server.api(.POST, "/feeds/activities/query", as: "ann", json: "{}"), status: 403, code: 17)
            #expect(try await server.api(.POST, "/users/reactivate", as: nil, json: #"{"user_ids":["ann","ben"]}"#).status == 201)
            #expect(try await server.api(.POST, "/feeds/activities/query", as: "ben", json: "{}").status == 201)
        }
    }

    /// Users may not deactivate anyone, themselves included; lists are bounded; Chat's content
    /// options are refused rather than ignored.
    @Test func hostileDeactivationsChangeNothing() async throws {
        try await TestServer.run { server in
            _ = try await server.addActivity(as: "alice")
            expectAPIError(try await server.api(.POST, "/users/alice/deactivate", as: "alice", json: "{}"), status: 403, code: 17)
            expectAPIError(try await server.api(.POST, "/users/bob/deactivate", as: "alice", json: "{}"), status: 403, code: 17)
            expectAPIError(try await server.api(.POST, "/users/nobody/deactivate", as: nil, json: "{}"), status: 404, code: 16)
            let many = (0...100).map { #""u\#($0)""# }.joined(separator: ",")
            for body in [#"{"user_ids":[]}"#, #"{"user_ids":[\#(many)]}"#, #"{"user_ids":["alice","alice"]}"#, #"{"user_ids":[""]}"#] {
                expectAPIError(try await server.api(.POST, "/users/deactivate", as: nil, json: body), status: 400, code: 4)
            }
            expectAPIError(
                try await server.api(.POST, "/users/alice/deactivate", as: nil, json: #"{"mark_messages_deleted":true}"#),
                status: 400, code: 4, field: "mark_messages_deleted")
            #expect(try await server.api(.POST, "/feeds/activities/query", as: "alice", json: "{}").status == 201)
        }
    }

    /// Another node refuses the user too, and closes their socket there, by notification alone
    /// (it reloads on its own once an hour here).
    @Test func anotherNodeLocksThemOutToo() async throws {
        try await TestServer.run { server in
            _ = try await server.addActivity(as: "alice")
            let webSocketPort = try freeLoopbackPort()
            let other = try await FeedsNode(
                databaseURL: server.databaseURL, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
                port: try freeLoopbackPort(),
                environment: ["FEEDS_WS_PORT": String(webSocketPort), "FEEDS_SETTINGS_REFRESH": "3600"])
            defer { other.stop() }
            let socket = RealtimeSocket(
                url: "ws://127.0.0.1:\(webSocketPort)/api/v2/connect", apiKey: server.apiKey, userID: "alice",
                token: try await server.token("alice"), logger: TestDatabase.logger)
            #expect(try await Inbox(socket).next()["type"].string == "connection.ok")
            #expect(try await server.api(.POST, "/users/alice/deactivate", as: nil, json: "{}").status == 201)
            #expect(try await socket.closeCode() == 1008)
            let token = try await server.token("alice")
            let url = "\(other.baseURL)/api/v2/feeds/activities/query?api_key=\(server.apiKey)"
            let reply = try await TestServer.send(
                .POST, url, body: Data("{}".utf8),
                headers: [("Stream-Auth-Type", "jwt"), ("Authorization", token), ("Content-Type", "application/json")])
            #expect(reply.status == 403, "\(reply.text)")
        }
    }
}
