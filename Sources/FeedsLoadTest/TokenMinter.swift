import Foundation
import JWTKit

/// Mints the Stream user tokens a load test sends: HS256 with the app secret, `user_id` claim,
/// as `feeds token --user` does. All are minted before the run so that signing costs no latency.
public struct TokenMinter: Sendable {
    private let keys: JWTKeyCollection

    public init(apiSecret: String) async {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: apiSecret), digestAlgorithm: .sha256)
    }

    /// A token for `userID`.
    public func token(for userID: String) async throws -> String {
        try await keys.sign(UserClaims(userID: userID, issuedAt: IssuedAtClaim(value: Date())))
    }

    /// The server's token (`{"server": true}`), for server-side calls such as UpdateApp.
    public func serverToken() async throws -> String {
        try await keys.sign(ServerClaims(server: true, issuedAt: IssuedAtClaim(value: Date())))
    }

    /// Tokens for every id, in order.
    public func tokens(for userIDs: [String]) async throws -> [String] {
        var tokens: [String] = []
        tokens.reserveCapacity(userIDs.count)
        for id in userIDs { tokens.append(try await token(for: id)) }
        return tokens
    }
}

/// The claims of a user token.
private struct UserClaims: JWTPayload {
    var userID: String
    var issuedAt: IssuedAtClaim

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case issuedAt = "iat"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The claims of the server's token.
private struct ServerClaims: JWTPayload {
    var server: Bool
    var issuedAt: IssuedAtClaim

    enum CodingKeys: String, CodingKey {
        case server
        case issuedAt = "iat"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
