import FeedsCore
import Foundation
import JWTKit

/// Stream's request authentication: the `api_key` query parameter, and an HS256 JWT signed with
/// the app secret in `Authorization`, with `Stream-Auth-Type: jwt`.
public struct Authenticator: Sendable {
    package let apiKey: String
    /// Signs tokens (`feeds token`, the tests).
    package let keys: JWTKeyCollection
    package let verifier: TokenVerifier
    /// Users whose tokens are refused until they are reactivated (DeactivateUser).
    public let deactivated = DeactivatedUsers()

    /// HS256 wants a key at least as long as its hash; shorter secrets are refused at start.
    public static let minimumSecretBytes = 32

    public init(apiKey: String, apiSecret: String) async throws {
        guard !apiKey.isEmpty else { throw ConfigurationError("the API key must not be empty") }
        guard apiSecret.utf8.count >= Self.minimumSecretBytes else {
            throw ConfigurationError("the API secret must be at least \(Self.minimumSecretBytes) bytes long")
        }
        self.apiKey = apiKey
        self.keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: apiSecret), digestAlgorithm: .sha256)
        self.verifier = TokenVerifier(key: try await keys.getKey())
    }

    /// Who the request acts as, or the Stream error that refuses it. Without suspending: the
    /// event loop's answers (`LinkPreviewFastAnswer`) call it too.
    package func authenticate(apiKey given: String?, authorization: String?, authType: String?) throws(FeedsError)
        -> Principal
    {
        try checkAPIKey(given)
        guard let authType, authType[...].equalsIgnoringASCIICase("jwt") else {
            throw FeedsError(.authentication, "Stream-Auth-Type header must be jwt", field: "Stream-Auth-Type")
        }
        guard var token = authorization?.trimmingHeaderSpace(), !token.isEmpty else {
            throw FeedsError(.authentication, "Authorization header with a JWT is missing", field: "Authorization")
        }
        if token.prefix(7).equalsIgnoringASCIICase("bearer ") { token = token.dropFirst(7).trimmingHeaderSpace() }
        let claims: StreamClaims
        do {
            claims = try verifier.verify(token)
        } catch let error as JWTError {
            throw Self.refusal(error)
        } catch {
            throw FeedsError(.tokenSignature, "token is not valid", field: "Authorization")
        }
        if let userID = claims.userID {
            guard !userID.isEmpty else { throw FeedsError(.authentication, "user_id claim is empty", field: "Authorization") }
            guard !deactivated.contains(userID) else { throw FeedsError.notAllowed("user \(userID) is deactivated or deleted") }
            return .user(userID)
        }
        return .server
    }

    /// The API key a request names must be this app's: even an anonymous call (CreateGuest) names it.
    package func checkAPIKey(_ given: String?) throws(FeedsError) {
        guard let given, constantTimeEqual(given, apiKey) else {
            throw FeedsError(
                .badAPIKey, given == nil ? "api_key query parameter is missing" : "api_key is not valid", field: "api_key")
        }
    }

    /// A signed token: a user's with `userID`, else the server's.
    public func token(userID: String?, expiresAt: Date? = nil) async throws -> String {
        try await keys.sign(StreamClaims(userID: userID, expiresAt: expiresAt))
    }

    private static func refusal(_ error: JWTError) -> FeedsError {
        switch error.errorType {
        case .claimVerificationFailure where error.failedClaim is ExpirationClaim:
            FeedsError(.tokenExpired, "token has expired", field: "Authorization")
        case .claimVerificationFailure where error.failedClaim is NotBeforeClaim:
            FeedsError(.tokenNotYetValid, "token is not valid yet (nbf)", field: "Authorization")
        case .malformedToken:
            FeedsError(.authentication, "token is malformed", field: "Authorization")
        default:
            // Wrong secret, wrong algorithm (alg "none" included): the signature does not verify.
            FeedsError(.tokenSignature, "token signature is not valid", field: "Authorization")
        }
    }
}

/// A setting the server cannot start with.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
    package init(_ description: String) { self.description = description }
}

/// Compares secrets without leaking where they differ through timing.
package func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
    let a = Array(lhs.utf8), b = Array(rhs.utf8)
    guard a.count == b.count else { return false }
    return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
}
