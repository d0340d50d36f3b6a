import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// CreateGuest, anonymous as the SDKs' `connectGuest` sends it: refused until the app allows
/// guests; then a new user of role `guest` with a token that works, never a token for a user
/// who exists.
@Suite struct GuestTests {
    func createGuest(_ server: TestServer, _ json: String, apiKey: String? = nil) async throws -> TestServer.Reply {
        try await TestServer.send(
            .POST, "\(server.baseURL)/api/v2/guest?api_key=\(apiKey ?? server.apiKey)", body: Data(json.utf8),
            headers: [("Stream-Auth-Type", "anonymous"), ("Content-Type", "application/json")])
    }

    @Test func guestsComeOnlyWhenTheAppAllowsThem() async throws {
        try await TestServer.run { server in
            expectAPIError(try await createGuest(server, #"{"user":{"id":"visitor"}}"#), status: 403, code: 17)
            try await server.changeApp(#"{"guest_user_creation_disabled":false}"#)
            let app = try await server.api(.GET, "/app", as: nil)
            #expect(app.body["app"]["guest_user_creation_disabled"].bool == false, "\(app.text)")
            let made = try await createGuest(server, #"{"user":{"id":"visitor","name":"Visitor","custom":{"from":"web"}}}"#)
            #expect(made.status == 201, "\(made.text)")
            #expect(made.body["user"]["id"].string == "visitor" && made.body["user"]["role"].string == "guest", "\(made.text)")
            #expect(made.body["user"]["custom"]["from"].string == "web", "\(made.text)")
            // The token is the guest's: it posts to their own feed.
            let token = try #require(made.body["access_token"].string)
            let posted = try await TestServer.send(
                .POST, "\(server.baseURL)/api/v2/feeds/activities?api_key=\(server.apiKey)",
                body: Data(#"{"type":"post","feeds":["user:visitor"],"text":"hi"}"#.utf8),
                headers: [("Stream-Auth-Type", "jwt"), ("Authorization", token), ("Content-Type", "application/json")])
            #expect(posted.status == 201 && posted.body["activity"]["user"]["id"].string == "visitor", "\(posted.text)")
            // Without an id, one is made.
            let unnamed = try await createGuest(server, #"{"user":{"id":""}}"#)
            #expect(unnamed.body["user"]["id"].string?.hasPrefix("guest-") == true, "\(unnamed.text)")
            try await server.changeApp(#"{"guest_user_creation_disabled":true}"#)
            expectAPIError(try await createGuest(server, #"{"user":{"id":"late"}}"#), status: 403, code: 17)
        }
    }

    /// A taken id (the account it would take over), another role, an id no feed takes, a wrong
    /// API key, anonymous calls anywhere else: refused, nothing changed.
    @Test func hostileGuestsGetNothing() async throws {
        try await TestServer.run { server in
            try await server.changeApp(#"{"guest_user_creation_disabled":false}"#)
            let post = try #require(try await server.addActivity(as: "alice")["id"].string)
            let taken = try await createGuest(server, #"{"user":{"id":"alice","name":"Mallory","role":"guest"}}"#)
            expectAPIError(taken, status: 409, code: 4, field: "user.id")
            #expect(taken.body["access_token"] == .null)
            let read = try await server.api(.GET, "/feeds/activities/\(post)", as: nil)
            #expect(read.status == 200 && read.body["activity"]["user"]["role"].string == "user", "\(read.text)")
            #expect(read.body["activity"]["user"]["name"] != .string("Mallory"))
            expectAPIError(try await createGuest(server, #"{"user":{"id":"boss","role":"admin"}}"#), status: 400, code: 4, field: "user.role")
            expectAPIError(try await createGuest(server, #"{"user":{"id":"a:b"}}"#), status: 400, code: 4)
            expectAPIError(try await createGuest(server, #"{"user":{"id":"\#(String(repeating: "x", count: 300))"}}"#), status: 400, code: 4)
            expectAPIError(try await createGuest(server, #"{"user":{"id":"x"}}"#, apiKey: "wrong"), status: 401, code: 2)
            let anonymousRead = try await TestServer.send(
                .POST, "\(server.baseURL)/api/v2/feeds/activities/query?api_key=\(server.apiKey)", body: Data("{}".utf8),
                headers: [("Stream-Auth-Type", "anonymous"), ("Content-Type", "application/json")])
            #expect(anonymousRead.status == 401, "\(anonymousRead.text)")
        }
    }
}
