import FeedsHTTP
import FeedsTestSupport
import Foundation
import JWTKit
import Testing

@testable import FeedsAuth

@Suite struct AuthTests {
    /// Sends a query with exactly the given credentials.
    func query(_ server: TestServer, apiKey: String?, token: String?, authType: String? = "jwt") async throws -> TestServer.Reply
    {
        var headers = [("Content-Type", "application/json")]
        if let token { headers.append(("Authorization", token)) }
        if let authType { headers.append(("Stream-Auth-Type", authType)) }
        let query = apiKey.map { "?api_key=\($0)" } ?? ""
        return try await server.send(.POST, "/api/v2/feeds/activities/query\(query)", body: Data("{}".utf8), headers: headers)
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func validServerAndUserTokensPassWithOrWithoutBearer() async throws {
        try await TestServer.run { server in
            let user = try await server.token("alice")
            #expect(try await query(server, apiKey: server.apiKey, token: user).status == 201)
            #expect(try await query(server, apiKey: server.apiKey, token: "Bearer \(user)").status == 201)
            #expect(try await query(server, apiKey: server.apiKey, token: "bEARER \t \(user)").status == 201)
            #expect(try await query(server, apiKey: server.apiKey, token: try await server.token(nil)).status == 201)
            // Stream's server tokens carry {"server": true}; an empty payload is the server too.
            let emptyPayload = try await server.authenticator.token(userID: nil)
            #expect(try await query(server, apiKey: server.apiKey, token: emptyPayload).status == 201)
        }
    }

    @Test func aMissingOrWrongAPIKeyIsCode2() async throws {
        try await TestServer.run { server in
            let token = try await server.token("alice")
            expectAPIError(try await query(server, apiKey: nil, token: token), status: 401, code: 2, field: "api_key")
            expectAPIError(try await query(server, apiKey: "not-the-key", token: token), status: 401, code: 2, field: "api_key")
        }
    }

    @Test func aMissingTokenOrAuthTypeIsRefused() async throws {
        try await TestServer.run { server in
            expectAPIError(try await query(server, apiKey: server.apiKey, token: nil), status: 401, code: 5)
            expectAPIError(try await query(server, apiKey: server.apiKey, token: "not.a.jwt"), status: 401, code: 5)
            let token = try await server.token("alice")
            expectAPIError(try await query(server, apiKey: server.apiKey, token: token, authType: nil), status: 401, code: 5)
            expectAPIError(
                try await query(server, apiKey: server.apiKey, token: token, authType: "anonymous"), status: 401, code: 5)
        }
    }

    @Test func aTokenSignedWithAnotherSecretIsCode43() async throws {
        try await TestServer.run { server in
            let other = try await Authenticator(apiKey: server.apiKey, apiSecret: "another-secret-entirely-0123456789abcdef")
            let token = try await other.token(userID: "alice")
            expectAPIError(try await query(server, apiKey: server.apiKey, token: token), status: 401, code: 43)
        }
    }

    @Test(arguments: [#"{"alg":"none","typ":"JWT"}"#, #"{"alg":"HS512","typ":"JWT"}"#, #"{"alg":"RS256","typ":"JWT"}"#])
    func otherAlgorithmsAreRefused(header: String) async throws {
        try await TestServer.run { server in
            // The real HS256 signature under another alg header: only HS256 with our secret verifies.
            let valid = try await server.token("alice").split(separator: ".")
            let forged = [Self.base64URL(header), String(valid[1]), header.contains("none") ? "" : String(valid[2])].joined(
                separator: ".")
            let reply = try await query(server, apiKey: server.apiKey, token: forged)
            #expect(reply.status == 401, "\(reply.text)")
            #expect([43, 5].contains(reply.body["code"].int ?? 0))
        }
    }

    @Test func expiredAndNotYetValidTokensAreRefused() async throws {
        try await TestServer.run { server in
            let expired = try await server.authenticator.token(userID: "alice", expiresAt: Date().addingTimeInterval(-60))
            expectAPIError(try await query(server, apiKey: server.apiKey, token: expired), status: 401, code: 40)
            let fresh = try await server.authenticator.token(userID: "alice", expiresAt: Date().addingTimeInterval(60))
            #expect(try await query(server, apiKey: server.apiKey, token: fresh).status == 201)
        }
    }

    @Test func aTokenNotValidYetIsCode41() async throws {
        try await TestServer.run { server in
            let keys = JWTKeyCollection()
            await keys.add(hmac: HMACKey(from: TestServer.apiSecret), digestAlgorithm: .sha256)
            var claims = StreamClaims(userID: "alice")
            claims.nbf = NotBeforeClaim(value: Date().addingTimeInterval(300))
            let early = try await keys.sign(claims)
            expectAPIError(try await query(server, apiKey: server.apiKey, token: early), status: 401, code: 41)
        }
    }

    @Test func onlyTheServerMayUpdateUsers() async throws {
        try await TestServer.run { server in
            let body = #"{"users":{"alice":{"id":"alice","name":"Alice"}}}"#
            expectAPIError(try await server.api(.POST, "/users", as: "alice", json: body), status: 403, code: 17)
            #expect(try await server.api(.POST, "/users", as: nil, json: body).status == 201)
        }
    }
}
