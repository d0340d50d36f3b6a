import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// CreateDevice, ListDevices and DeleteDevice through the real server: a user's own devices, the
/// same token again, a token that moves to another user, the bound, and what a hostile client sends.
@Suite struct DeviceTests {
    @Test func aUsersDevicesAreTheirOwn() async throws {
        try await TestServer.run { server in
            let body = #"{"id":"token-1","push_provider":"apn","push_provider_name":"prod","hardware_id":"iphone","voip_token":true}"#
            #expect(try await server.api(.POST, "/devices", as: "alice", json: body).status == 201)
            #expect(try await server.api(.POST, "/devices", as: "alice", json: body).status == 201, "the same device again")
            let listed = try await server.api(.GET, "/devices", as: "alice")
            #expect(listed.status == 200, "\(listed.text)")
            let device = listed.body["devices"][0]
            #expect(listed.body["devices"].array.count == 1)
            #expect(device["id"].string == "token-1" && device["push_provider"].string == "apn" && device["user_id"].string == "alice")
            #expect(device["push_provider_name"].string == "prod" && device["hardware_id"].string == "iphone")
            #expect(device["voip"].bool == true && device["disabled"].bool == false && device["created_at"].int != nil)
            // Bob sees none of alice's and may not remove hers; the server lists hers by user_id.
            #expect(try await server.api(.GET, "/devices", as: "bob").body["devices"].array.isEmpty)
            expectAPIError(try await server.api(.DELETE, "/devices", as: "bob", query: "&id=token-1"), status: 404, code: 16)
            expectAPIError(try await server.api(.GET, "/devices", as: "bob", query: "&user_id=alice"), status: 403, code: 17)
            #expect(try await server.api(.GET, "/devices", as: nil, query: "&user_id=alice").body["devices"].array.count == 1)
            // The phone signs in as bob: the token is his now.
            #expect(try await server.api(.POST, "/devices", as: "bob", json: #"{"id":"token-1","push_provider":"apn"}"#).status == 201)
            #expect(try await server.api(.GET, "/devices", as: "alice").body["devices"].array.isEmpty)
            #expect(try await server.api(.GET, "/devices", as: "bob").body["devices"][0]["id"].string == "token-1")
            #expect(try await server.api(.DELETE, "/devices", as: "bob", query: "&id=token-1").status == 200)
            expectAPIError(try await server.api(.DELETE, "/devices", as: "bob", query: "&id=token-1"), status: 404, code: 16)
        }
    }

    /// Past 25 devices the oldest go; bad tokens, providers and users are refused, writing nothing.
    @Test func devicesAreBoundedAndCheckedOnTheWayIn() async throws {
        try await TestServer.run { server in
            for n in 0..<(Device.maxPerUser + 3) {
                #expect(try await server.api(.POST, "/devices", as: "carol", json: #"{"id":"t\#(n)","push_provider":"firebase"}"#).status == 201)
            }
            let ids = try await server.api(.GET, "/devices", as: "carol").body["devices"].array.compactMap { $0["id"].string }
            #expect(ids.count == Device.maxPerUser && !ids.contains("t0") && ids.contains("t27"), "\(ids)")
            let long = String(repeating: "x", count: 256)
            for body in [
                #"{"id":"","push_provider":"firebase"}"#, #"{"id":"\#(long)","push_provider":"firebase"}"#,
                #"{"id":"ok","push_provider":"pigeon"}"#, #"{"id":"ok"}"#, #"{"push_provider":"apn"}"#,
                #"{"id":"ok","push_provider":"apn","push_provider_name":"\#(long)"}"#, "[]",
            ] {
                let reply = try await server.api(.POST, "/devices", as: "mallory", json: body)
                #expect(reply.status == 400, "\(body): \(reply.text)")
            }
            expectAPIError(
                try await server.api(.POST, "/devices", as: "mallory", json: #"{"id":"ok","push_provider":"apn","user_id":"carol"}"#),
                status: 403, code: 17)
            expectAPIError(
                try await server.api(.POST, "/devices", as: nil, json: #"{"id":"ok","push_provider":"apn"}"#), status: 400, code: 4,
                field: "user_id")
            let missingID = try await server.api(.DELETE, "/devices", as: "mallory")
            #expect(missingID.status == 400, "\(missingID.text)")
            #expect(try await server.number("SELECT count(*)::int FROM devices WHERE user_id <> 'carol'") == 0)
        }
    }

    /// GetOrCreateFollow and GetOrCreateUnfollow: one follow made once, ended once, no error after.
    @Test func oneFollowIsMadeOnceAndEndedOnce() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            let body = #"{"source":"timeline:bob","target":"user:alice"}"#
            let made = try await server.api(.POST, "/feeds/follows/upsert", as: "bob", json: body)
            #expect(made.status == 201 && made.body["created"].bool == true, "\(made.text)")
            #expect(made.body["follow"]["target_feed"]["feed"].string == "user:alice")
            let again = try await server.api(.POST, "/feeds/follows/upsert", as: "bob", json: body)
            #expect(again.body["created"].bool == false && again.body["follow"]["created_at"] == made.body["follow"]["created_at"])
            expectAPIError(
                try await server.api(.POST, "/feeds/follows/upsert", as: "mallory", json: body), status: 403, code: 17)
            let ended = try await server.api(.POST, "/feeds/unfollow/upsert", as: "bob", json: body)
            #expect(ended.status == 201 && ended.body["deleted"].bool == true, "\(ended.text)")
            let none = try await server.api(.POST, "/feeds/unfollow/upsert", as: "bob", json: body)
            #expect(none.status == 201 && none.body["deleted"].bool == false && none.body["follow"] == .null, "\(none.text)")
            let bad = try await server.api(.POST, "/feeds/unfollow/upsert", as: "bob", json: #"{"source":"nocolon","target":"user:alice"}"#)
            #expect(bad.status == 400, "\(bad.text)")
            #expect(try await server.number("SELECT count(*)::int FROM follows WHERE source_fid = 'timeline:bob'") == 0)
        }
    }
}
