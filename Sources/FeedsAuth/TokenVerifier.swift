import FeedsCore
import Foundation
import JWTKit

/// Checks an HS256 token with JWTKit's own key and claim checks, in the order JWTKit's
/// `JWTKeyCollection.verify` takes: three parts, a header that decodes, the signature, then the
/// claims. Without the collection, which is an actor: every request's token queued through its one
/// executor, two task switches each.
package struct TokenVerifier: Sendable {
    /// JWTKit's HMAC-SHA256 key, taken from the collection once.
    package let key: any JWTAlgorithm

    /// Without suspending: JWTKit's claim checks are `async` only by protocol, and the event
    /// loop's answers (`LinkPreviewFastAnswer`) authenticate too.
    package func verify(_ token: some StringProtocol) throws -> StreamClaims {
        let bytes = Array(token.utf8)
        let parts = try DefaultJWTParser().getTokenParts(bytes)
        guard try Self.saysHS256(parts.header), let signature = Base64URL.decode(parts.signature),
            try key.verify(signature, signs: bytes[..<parts.payload.endIndex])
        else {
            throw JWTError.signatureVerificationFailed
        }
        guard let payload = Base64URL.decode(parts.payload) else {
            throw JWTError.malformedToken(reason: "the payload is not base64url")
        }
        let claims: StreamClaims
        if let json = try? JSONValue(parsing: String(decoding: payload, as: UTF8.self)), let common = StreamClaims(common: json) {
            claims = common
        } else {
            do {
                claims = try JSONDecoder.defaultForJWT.decode(StreamClaims.self, from: Data(payload))
            } catch {
                throw JWTError.malformedToken(reason: "the claims do not decode: \(error)")
            }
        }
        try claims.exp?.verifyNotExpired()
        try claims.nbf?.verifyNotBefore()
        return claims
    }

    /// Whether the header says HS256; it must be a JSON object.
    private static func saysHS256(_ header: ArraySlice<UInt8>) throws -> Bool {
        if header.elementsEqual(usualHeader) { return true }  // nearly every token's, read once
        guard let text = Base64URL.decode(header),
            case .object(let fields)? = try? JSONValue(parsing: String(decoding: text, as: UTF8.self))
        else {
            throw JWTError.malformedToken(reason: "the header is not a JSON object")
        }
        return fields["alg"] == .string("HS256")
    }

    /// `{"alg":"HS256","typ":"JWT"}`, as JWTKit, jsonwebtoken and Stream's SDKs write it.
    private static let usualHeader = Array("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9".utf8)
}

extension StreamClaims {
    /// The claims of a payload holding only these claims, each of its type or null, read without
    /// a decoder (JWTKit's `JSONDecoder` was a thirtieth of a create). Extra claims are ignored,
    /// as the decoder ignores them; nil for anything else, which the decoder then reads or refuses.
    package init?(common json: JSONValue) {
        guard case .object(let fields) = json else { return nil }
        var userID: String?, server: Bool?, exp: ExpirationClaim?, nbf: NotBeforeClaim?, iat: IssuedAtClaim?
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
        self.init(userID: userID, server: server, exp: exp, nbf: nbf, iat: iat)
    }
}
