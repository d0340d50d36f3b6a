import Crypto
import Foundation

/// AWS Signature Version 4, both forms: an `Authorization` header for requests the server sends,
/// and presigned query URLs for clients. A pure value: the same inputs always sign the same way.
public struct SigV4Signer: Sendable, Hashable {
    /// An access key, its secret and, for temporary credentials, the session token.
    public struct Credentials: Sendable, Hashable {
        public var accessKeyID: String
        public var secretAccessKey: String
        public var sessionToken: String?

        public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }
    }

    /// The SHA-256 of no bytes, hex: the payload hash of a request without a body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// The payload hash of presigned URLs: the client's body is not known when signing.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    static let algorithm = "AWS4-HMAC-SHA256"

    public let credentials: Credentials
    public let region: String
    public let service: String

    public init(credentials: Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The headers to send: `headers`, plus `host`, `x-amz-date`, `x-amz-content-sha256` (S3 only),
    /// `x-amz-security-token` (with a session token) and `authorization`. Every header is signed.
    public func sign(
        method: String, url: URL, headers: [(name: String, value: String)] = [], payloadHash: String, date: Date
    ) -> [(name: String, value: String)] {
        let time = Self.timestamp(date)
        var all = headers
        if !all.contains(where: { $0.name.lowercased() == "host" }) { all.append(("host", Self.host(of: url))) }
        all.append(("x-amz-date", time))
        // S3 checks the body against this header rather than trusting the signature alone.
        if service == "s3" { all.append(("x-amz-content-sha256", payloadHash)) }
        if let token = credentials.sessionToken { all.append(("x-amz-security-token", token)) }

        let canonical = canonicalRequest(
            method: method, url: url, query: Self.queryItems(of: url), headers: all, payloadHash: payloadHash)
        let scope = scope(time)
        let signature = signature(of: stringToSign(canonical.text, time: time, scope: scope), day: String(time.prefix(8)))
        all.append(
            (
                "authorization",
                "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(canonical.signedHeaders), Signature=\(signature)"
            ))
        return all
    }

    /// A URL that lets anyone send `method` to `url` for `expires` seconds (S3 allows at most
    /// 604800, seven days) from `date`, without credentials. Only `host` is signed.
    public func presign(method: String, url: URL, expires: Int, date: Date) -> URL {
        let time = Self.timestamp(date)
        let scope = scope(time)
        var query = Self.queryItems(of: url)
        query.append(("X-Amz-Algorithm", Self.algorithm))
        query.append(("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope)"))
        query.append(("X-Amz-Date", time))
        query.append(("X-Amz-Expires", String(expires)))
        if let token = credentials.sessionToken { query.append(("X-Amz-Security-Token", token)) }
        query.append(("X-Amz-SignedHeaders", "host"))

        let canonical = canonicalRequest(
            method: method, url: url, query: query, headers: [("host", Self.host(of: url))], payloadHash: Self.unsignedPayload)
        let signature = signature(of: stringToSign(canonical.text, time: time, scope: scope), day: String(time.prefix(8)))
        var components = URLComponents(url: url, resolvingAgainstBaseURL: true)!
        components.percentEncodedPath = canonicalPath(url)
        components.percentEncodedQuery = canonical.query + "&X-Amz-Signature=" + signature
        return components.url!
    }

    // MARK: The steps, as AWS's documentation names them

    /// The canonical request, and the parts of it that the result needs again.
    func canonicalRequest(
        method: String, url: URL, query: [(String, String)], headers: [(name: String, value: String)], payloadHash: String
    ) -> (text: String, signedHeaders: String, query: String) {
        let encoded: [(name: String, value: String)] = query.map { (Self.encode($0.0), Self.encode($0.1)) }
        let sorted = encoded.sorted { (a, b) -> Bool in a.name == b.name ? a.value < b.value : a.name < b.name }
        let canonicalQuery = sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        // Repeated headers are one, their values joined by commas; values trimmed, inner runs of spaces made one.
        var merged: [String: [String]] = [:]
        for (name, value) in headers {
            let tidy = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            merged[name.lowercased(), default: []].append(tidy)
        }
        let names = merged.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(merged[$0]!.joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let text = [method, canonicalPath(url), canonicalQuery, canonicalHeaders, signedHeaders, payloadHash]
            .joined(separator: "\n")
        return (text, signedHeaders, canonicalQuery)
    }

    func stringToSign(_ canonicalRequest: String, time: String, scope: String) -> String {
        [Self.algorithm, time, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))].joined(separator: "\n")
    }

    func signature(of stringToSign: String, day: String) -> String {
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    private func scope(_ time: String) -> String {
        "\(time.prefix(8))/\(region)/\(service)/aws4_request"
    }

    /// Each path segment encoded once for S3; other services encode the encoded path again.
    private func canonicalPath(_ url: URL) -> String {
        let raw = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? ""
        guard !raw.isEmpty else { return "/" }
        let once = raw.split(separator: "/", omittingEmptySubsequences: false)
            .map { Self.encode(String($0).removingPercentEncoding ?? String($0)) }
            .joined(separator: "/")
        guard service != "s3" else { return once }
        return once.split(separator: "/", omittingEmptySubsequences: false).map { Self.encode(String($0)) }
            .joined(separator: "/")
    }

    // MARK: Encoding

    /// `host`, or `host:port` when the port is not the scheme's default: what an HTTP client sends.
    static func host(of url: URL) -> String {
        let host = url.host(percentEncoded: false) ?? ""
        guard let port = url.port else { return host }
        let standard = url.scheme?.lowercased() == "https" ? 443 : 80
        return port == standard ? host : "\(host):\(port)"
    }

    /// The query's name-value pairs, decoded; a name without `=` has the empty value.
    static func queryItems(of url: URL) -> [(String, String)] {
        guard let query = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQuery, !query.isEmpty
        else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            return (name, value)
        }
    }

    /// RFC 3986 encoding as SigV4 wants it: unreserved ASCII kept, every other byte `%XX` in upper case.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(c.year ?? 1970)\(two(c.month))\(two(c.day))T\(two(c.hour))\(two(c.minute))\(two(c.second))Z"
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

extension SigV4Signer.Credentials: CustomStringConvertible {
    /// The key id only: the secret and token never reach a log.
    public var description: String { "Credentials(\(accessKeyID))" }
}
