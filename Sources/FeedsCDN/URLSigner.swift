import Crypto
import FeedsCore
import Foundation

/// Signs and checks the read URLs of CDN objects:
/// `{publicURL}/cdn/{key}?Expires={unix seconds}&Signature={base64url HMAC-SHA256 of "key\nExpires"}`.
public struct URLSigner: Sendable {
    /// Where clients reach this server, e.g. `https://feeds.example.com`; may end in a path prefix.
    public let publicURL: URL
    private let signingKey: SymmetricKey
    /// `publicURL` as text, without a trailing slash.
    private let base: String
    /// The percent-encoded path every object URL starts with, e.g. `/cdn/` or `/prefix/cdn/`.
    private let cdnPathPrefix: String
    private let scheme: String?
    private let host: String?
    private let port: Int?

    /// A signer for object URLs under `publicURL`, keyed with the bytes of `secret` as they are.
    public init(publicURL: URL, secret: some ContiguousBytes) {
        self.init(publicURL: publicURL, signingKey: SymmetricKey(data: secret))
    }

    /// A signer for object URLs under `publicURL`, keyed from the app's API secret. The key is
    /// derived (HKDF-SHA256 with a fixed label) rather than the secret itself, so that a URL
    /// signature can never help forge a JWT, nor the reverse.
    public init(publicURL: URL, apiSecret: String) {
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(apiSecret.utf8)),
            info: Data("feeds cdn read-url signing v1".utf8),
            outputByteCount: 32
        )
        self.init(publicURL: publicURL, signingKey: key)
    }

    private init(publicURL: URL, signingKey: SymmetricKey) {
        self.publicURL = publicURL
        self.signingKey = signingKey
        var base = publicURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
        let components = URLComponents(url: publicURL, resolvingAgainstBaseURL: true)
        var basePath = components?.percentEncodedPath ?? ""
        while basePath.hasSuffix("/") { basePath.removeLast() }
        self.cdnPathPrefix = basePath + "/cdn/"
        self.scheme = components?.scheme?.lowercased()
        self.host = components?.host?.lowercased()
        self.port = components.flatMap(Self.effectivePort)
    }

    /// A URL that reads `key` until `expiresAt` (whole seconds, rounded down).
    public func url(for key: ObjectKey, expiresAt: Date) -> URL {
        let expires = String(max(0, Int64(expiresAt.timeIntervalSince1970.rounded(.down))))
        let encodedKey = key.rawValue.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? "" }
            .joined(separator: "/")
        let text = "\(base)/cdn/\(encodedKey)?Expires=\(expires)&Signature=\(signature(key: key.rawValue, expires: expires))"
        // Every part is either the configured URL or percent-encoded / base64url / digits, so it parses.
        return URL(string: text)!
    }

    /// Checks the `Expires` and `Signature` query values of a request for `key` (the path after
    /// `/cdn/`, percent-decoded). The signature is compared in constant time.
    public func verify(key: String, expires: String?, signature: String?, now: Date) -> SignatureCheck {
        guard let expires, !expires.isEmpty, let signature, !signature.isEmpty else { return .missing }
        // Digits only: no sign, no spaces, and short enough that Int64 cannot overflow.
        guard expires.utf8.count <= 18, expires.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let expiresAt = Int64(expires),
            let mac = Base64URL.decode(signature), mac.count == SHA256.byteCount,
            // Only the canonical encoding: the last character's spare bits must not give one MAC many spellings.
            Base64URL.encode(mac) == signature,
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: Self.message(key: key, expires: expires), using: signingKey)
        else { return .bad }
        return now.timeIntervalSince1970 < Double(expiresAt) ? .valid : .expired
    }

    /// The key of one of our object URLs (same scheme, host, port and path prefix, then `/cdn/`
    /// and a well-formed key), whatever its query or expiry; nil for any other URL.
    public func objectKey(inURL text: String) -> ObjectKey? {
        guard let components = URLComponents(string: text), let scheme, let host,
            components.scheme?.lowercased() == scheme, components.host?.lowercased() == host,
            Self.effectivePort(components) == port,
            components.user == nil, components.password == nil
        else { return nil }
        let path = components.percentEncodedPath
        guard path.hasPrefix(cdnPathPrefix),
            let raw = String(path.dropFirst(cdnPathPrefix.count)).removingPercentEncoding
        else { return nil }
        return ObjectKey(rawValue: raw)
    }

    private func signature(key: String, expires: String) -> String {
        Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Self.message(key: key, expires: expires), using: signingKey))
    }

    private static func message(key: String, expires: String) -> Data {
        Data("\(key)\n\(expires)".utf8)
    }

    private static func effectivePort(_ components: URLComponents) -> Int? {
        if let port = components.port { return port }
        switch components.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    // RFC 3986 unreserved characters, ASCII only: `CharacterSet.alphanumerics` would let non-ASCII letters through.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )
}
