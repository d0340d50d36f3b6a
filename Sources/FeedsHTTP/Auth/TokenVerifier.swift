import FeedsCore
import Foundation
import JWTKit

/// Checks an HS256 token with JWTKit's own key and claim checks, in the order JWTKit's
/// `JWTKeyCollection.verify` takes: three parts, a header that decodes, the signature, then the
/// claims. Without the collection, which is an actor: every request's token queued through its one
/// executor, two task switches each.
struct TokenVerifier: Sendable {
    /// JWTKit's HMAC-SHA256 key, taken from the collection once.
    let key: any JWTAlgorithm

    func verify(_ token: some StringProtocol) async throws -> StreamClaims {
        let bytes = Array(token.utf8)
        let parts = try DefaultJWTParser().getTokenParts(bytes)
        guard let header = Self.header(parts.header) else {
            throw JWTError.malformedToken(reason: "the header is not a JSON object")
        }
        guard header["alg"] == .string("HS256"), let signature = Base64URL.decode(parts.signature),
            try key.verify(signature, signs: bytes[..<(parts.header.count + 1 + parts.payload.count)])
        else {
            throw JWTError.signatureVerificationFailed
        }
        let claims: StreamClaims
        if let json = Self.json(parts.payload), let common = StreamClaims(common: json) {
            claims = common
        } else {
            guard let payload = Base64URL.decode(parts.payload) else {
                throw JWTError.malformedToken(reason: "the payload is not base64url")
            }
            do {
                claims = try JSONDecoder.defaultForJWT.decode(StreamClaims.self, from: Data(payload))
            } catch {
                throw JWTError.malformedToken(reason: "the claims do not decode: \(error)")
            }
        }
        try await claims.verify(using: key)
        return claims
    }

    private static func json(_ part: ArraySlice<UInt8>) -> JSONValue? {
        Base64URL.decode(part).flatMap { try? JSONValue(parsing: String(decoding: $0, as: UTF8.self)) }
    }

    private static func header(_ part: ArraySlice<UInt8>) -> JSONObject? {
        // The header nearly every token has, read once.
        if part.elementsEqual(usualHeader) { return ["alg": .string("HS256"), "typ": .string("JWT")] }
        guard case .object(let header)? = json(part) else { return nil }
        return header
    }

    /// `{"alg":"HS256","typ":"JWT"}`, as JWTKit, jsonwebtoken and Stream's SDKs write it.
    private static let usualHeader = Array("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9".utf8)
}

extension StreamClaims {
    /// The claims of a payload holding only these claims, each of its type or null, read without
    /// a decoder (JWTKit's `JSONDecoder` was a thirtieth of a create). Extra claims are ignored,
    /// as the decoder ignores them; nil for anything else, which the decoder then reads or refuses.
    init?(common json: JSONValue) {
        guard case .object(let fields) = json else { return nil }
        self.init(userID: nil)  // then cleared of what that init fills in for a new token
        server = nil
        iat = nil
        for (name, value) in fields where value != .null {
            switch (name, value) {
            case ("user_id", .string(let id)): userID = id
            case ("server", .bool(let flag)): server = flag
            case ("exp", .number(let seconds)): exp = ExpirationClaim(value: Date(timeIntervalSince1970: seconds))
            case ("nbf", .number(let seconds)): nbf = NotBeforeClaim(value: Date(timeIntervalSince1970: seconds))
            case ("iat", .number(let seconds)): iat = IssuedAtClaim(value: Date(timeIntervalSince1970: seconds))
            case ("user_id", _), ("server", _), ("exp", _), ("nbf", _), ("iat", _): return nil
            default: continue
            }
        }
    }
}
