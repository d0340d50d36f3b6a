import Crypto
import FeedsCore
import Foundation
import JWTKit
import Testing

@testable import FeedsAuth
@testable import FeedsHTTP

/// `TokenVerifier` against JWTKit's own `JWTKeyCollection.verify`, which it replaces on the
/// request path: the same claims, or a refusal of the same kind, for every token.
@Suite struct TokenVerifierTests {
    static let secret = "token-verifier-tests-0123456789abcdef"
    static let hs256 = #"{"alg":"HS256","typ":"JWT"}"#

    static func token(header: String = hs256, payload: String, secret: String = secret) -> String {
        let input = AuthTests.base64URL(header) + "." + AuthTests.base64URL(payload)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        let signature = Data(mac).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return input + "." + signature
    }

    /// What a verifier made of a token: its claims, or the kind of its refusal.
    enum Outcome: Equatable {
        case claims(StreamClaims)
        case refused(String)

        var refused: Bool {
            if case .refused = self { true } else { false }
        }

        init(_ verify: () async throws -> StreamClaims) async {
            do {
                self = .claims(try await verify())
            } catch let error as JWTError {
                self = .refused("\(error.errorType)\(error.failedClaim.map { " \(type(of: $0))" } ?? "")")
            } catch {
                self = .refused("other")
            }
        }
    }

    static let now = Int(Date.now.timeIntervalSince1970)  // tokens are built from it; nothing is timed
    static let sameAsJWTKit: [String] = [
        token(payload: #"{"user_id":"alice","iat":1700000000}"#),
        token(payload: #"{"server":true}"#),
        token(payload: "{}"),
        token(payload: #"{"user_id":"bob","exp":\#(now + 3600),"nbf":\#(now - 60)}"#),
        token(payload: #"{"user_id":"bob","exp":\#(now - 10)}"#),
        token(payload: #"{"user_id":"bob","nbf":\#(now + 3600)}"#),
        token(payload: #"{"user_id":"carol","iss":"elsewhere","roles":[1,{"a":null}],"exp":1.5e10}"#),
        token(payload: #"{"user_id":null,"server":null,"iat":null}"#),
        token(payload: #"{"user_id":"ü ✓ \"quoted\""}"#),
        // Claims of the wrong type, read and refused by the decoder as JWTKit refuses them.
        token(payload: #"{"user_id":5}"#),
        token(payload: #"{"server":"yes"}"#),
        token(payload: #"{"exp":"tomorrow"}"#),
        token(payload: "[1,2]"),
        token(payload: "not json"),
        token(payload: #"{"user_id":"alice"}"#, secret: "another-secret-0123456789abcdef0123"),
        token(header: "not json", payload: #"{"user_id":"alice"}"#),
        "not.a.jwt", "a.b", "a.b.c.d", "", "..", "e30.e30.e30",
        token(payload: #"{"user_id":"alice"}"#) + "x",
    ]

    @Test(arguments: sameAsJWTKit)
    func decidesAsJWTKitDoes(token: String) async throws {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: Self.secret), digestAlgorithm: .sha256)
        let verifier = TokenVerifier(key: try await keys.getKey())
        let ours = await Outcome { try verifier.verify(token) }
        let theirs = await Outcome { try await keys.verify(token, as: StreamClaims.self) }
        #expect(ours == theirs, "\(token)")
    }

    /// Stricter than JWTKit, which takes any header with the right signature: the header must say
    /// HS256, as every Stream token's does (RFC 7515 requires `alg`).
    @Test(arguments: [#"{"typ":"JWT"}"#, #"{"alg":"HS512"}"#, #"{"alg":"none"}"#, #"{"alg":"hs256"}"#])
    func aHeaderThatDoesNotSayHS256IsRefused(header: String) async throws {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: Self.secret), digestAlgorithm: .sha256)
        let verifier = TokenVerifier(key: try await keys.getKey())
        let token = Self.token(header: header, payload: #"{"user_id":"alice"}"#)
        #expect(await Outcome { try verifier.verify(token) } == .refused("signatureVerificationFailed"))
    }

    /// A signature that is not base64url: JWTKit throws its base64 error, which the server answered
    /// with code 43 as well ("token is not valid"); here it is a signature that does not verify.
    @Test func aSignatureThatIsNotBase64URLDoesNotVerify() async throws {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: Self.secret), digestAlgorithm: .sha256)
        let verifier = TokenVerifier(key: try await keys.getKey())
        for token in [String(Self.token(payload: #"{"user_id":"alice"}"#).dropLast(2)), Self.token(payload: "{}") + "+/"] {
            #expect(await Outcome { try verifier.verify(token) } == .refused("signatureVerificationFailed"))
            #expect(await Outcome { try await keys.verify(token, as: StreamClaims.self) }.refused)
        }
    }

    @Test func commonClaimsReadAsTheDecoderReadsThem() throws {
        let payloads = [
            #"{"user_id":"alice","iat":1700000000,"exp":1800000000.25,"nbf":1600000000}"#, #"{"server":false}"#, "{}",
            #"{"user_id":"x","unknown":{"nested":[true]}}"#,
        ]
        for payload in payloads {
            let json = try JSONValue(parsing: payload)
            let decoded = try (JSONDecoder.defaultForJWT as! JSONDecoder).decode(StreamClaims.self, from: Data(payload.utf8))
            #expect(StreamClaims(common: json) == decoded, "\(payload)")
        }
        for payload in [#"{"user_id":1}"#, #"{"exp":"x"}"#, #"{"server":1}"#, "[]", #""text""#] {
            #expect(StreamClaims(common: try JSONValue(parsing: payload)) == nil, "\(payload)")
        }
    }
}
