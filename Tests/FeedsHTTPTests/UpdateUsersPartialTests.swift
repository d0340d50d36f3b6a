import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// UpdateUsersPartial: `set` and `unset` on a user's fields and custom keys; a user patches only
/// itself and not its role; concurrent patches of different keys all stay; hostile patches
/// change nothing.
@Suite struct UpdateUsersPartialTests {
    @Test func setAndUnsetChangeOnlyWhatTheyName() async throws {
        try await TestServer.run { server in
            let made = try await server.api(
                .POST, "/users", as: nil,
                json: #"{"users":{"alice":{"id":"alice","name":"Alice","image":"a.png","custom":{"color":"red","size":3}}}}"#)
            #expect(made.status == 201, "\(made.text)")
            let reply = try await server.api(
                .PATCH, "/users", as: nil,
                json: #"{"users":[{"id":"alice","set":{"name":"Alice B","mood":"happy"},"unset":["image","size"]}]}"#)
            #expect(reply.status == 200, "\(reply.text)")
            let alice = reply.body["users"]["alice"]
            #expect(alice["name"].string == "Alice B" && alice["image"] == .null, "\(alice)")
            #expect(alice["custom"] == .object(["color": .string("red"), "mood": .string("happy")]), "\(alice)")
            // A user patches itself, but not its role.
            let own = try await server.api(.PATCH, "/users", as: "alice", json: #"{"users":[{"id":"alice","set":{"name":"Al"}}]}"#)
            #expect(own.status == 200 && own.body["users"]["alice"]["name"].string == "Al", "\(own.text)")
            expectAPIError(
                try await server.api(.PATCH, "/users", as: "alice", json: #"{"users":[{"id":"alice","set":{"role":"admin"}}]}"#),
                status: 403, code: 17)
        }
    }

    /// Sixteen patches at once, each of its own key: the row lock keeps every one.
    @Test func concurrentPatchesOfDifferentKeysAllStay() async throws {
        try await TestServer.run { server in
            #expect(try await server.api(.POST, "/users", as: nil, json: #"{"users":{"bob":{"id":"bob"}}}"#).status == 201)
            try await hangGuard("16 concurrent patches", seconds: 300) {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for n in 0..<16 {
                        group.addTask {
                            try await server.api(.PATCH, "/users", as: "bob", json: #"{"users":[{"id":"bob","set":{"k\#(n)":\#(n)}}]}"#).status
                        }
                    }
                    for try await status in group { #expect(status == 200) }
                }
            }
            let custom = try await Self.user("bob", server)
            #expect(custom.body["users"][0]["custom"].object?.count == 16, "\(custom.text)")
        }
    }

    @Test func hostilePatchesChangeNothing() async throws {
        try await TestServer.run { server in
            #expect(try await server.api(.POST, "/users", as: nil, json: #"{"users":{"carol":{"id":"carol","name":"Carol"}}}"#).status == 201)
            for (body, status, code) in [
                (#"{"users":[{"id":"carol","set":{"name":"x"},"unset":["name"]}]}"#, 400, 4),
                (#"{"users":[{"id":"carol","set":{"id":"mallory"}}]}"#, 400, 4),
                (#"{"users":[{"id":"carol","set":{"created_at":"2020-01-01"}}]}"#, 400, 4),
                (#"{"users":[{"id":"carol","set":{"name":7}}]}"#, 400, 4),
                (#"{"users":[{"id":"carol","set":{"teams":[1]}}]}"#, 400, 4),
                (#"{"users":[{"id":"carol","set":{"big":"\#(String(repeating: "x", count: 20_000))"}}]}"#, 400, 4),
                (#"{"users":[]}"#, 400, 4),
                (#"{"users":[{"id":""}]}"#, 400, 4),
                (#"{"users":[{"id":"carol","set":{"name":"y"}},{"id":"nobody","set":{"name":"z"}}]}"#, 404, 16),
                (#"{"users":{"id":"carol"}}"#, 400, 4),
            ] {
                expectAPIError(try await server.api(.PATCH, "/users", as: nil, json: body), status: status, code: code)
            }
            // Another user's row, even for a field any user may set.
            expectAPIError(
                try await server.api(.PATCH, "/users", as: "mallory", json: #"{"users":[{"id":"carol","set":{"name":"owned"}}]}"#),
                status: 403, code: 17)
            let carol = try await Self.user("carol", server)
            #expect(carol.body["users"][0]["name"].string == "Carol" && carol.body["users"][0]["custom"] == .object([:]), "\(carol.text)")
        }
    }

    /// QueryUsers for one user, as the server.
    static func user(_ id: String, _ server: TestServer) async throws -> TestServer.Reply {
        let payload = #"{"filter_conditions":{"id":"\#(id)"}}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return try await server.api(.GET, "/users", as: nil, query: "&payload=\(payload)")
    }
}
