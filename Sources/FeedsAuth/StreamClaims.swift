import Foundation
import JWTKit

/// The claims of a Stream token: `user_id` for a user; none (or `server: true`) for the server.
public struct StreamClaims: JWTPayload, Equatable {
    public var userID: String?
    public var server: Bool?
    public var exp: ExpirationClaim?
    public var nbf: NotBeforeClaim?
    public var iat: IssuedAtClaim?

    package enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case server, exp, nbf, iat
    }

    public init(userID: String?, expiresAt: Date? = nil, issuedAt: Date = Date()) {
        // Whole seconds, as other JWT libraries write NumericDate.
        func whole(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
        self.userID = userID
        self.server = userID == nil ? true : nil
        self.exp = expiresAt.map { ExpirationClaim(value: whole($0)) }
        self.iat = IssuedAtClaim(value: whole(issuedAt))
    }

    /// The claims as a token holds them.
    package init(userID: String?, server: Bool?, exp: ExpirationClaim?, nbf: NotBeforeClaim?, iat: IssuedAtClaim?) {
        (self.userID, self.server, self.exp, self.nbf, self.iat) = (userID, server, exp, nbf, iat)
    }

    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp?.verifyNotExpired()
        try nbf?.verifyNotBefore()
    }
}
