import Foundation

/// Where an S3-compatible bucket is and how to reach it (`FEEDS_S3_*`, `AWS_*`).
public struct S3Configuration: Sendable, Hashable {
    /// The store's base URL: AWS's regional endpoint unless set (MinIO, Ceph, R2, a test server).
    public var endpoint: URL
    public var bucket: String
    public var region: String
    /// `{endpoint}/{bucket}/{key}` rather than `{bucket}.{endpoint host}/{key}`.
    public var pathStyle: Bool
    public var credentials: SigV4Signer.Credentials
    /// The most one call to the store may take (`FEEDS_S3_TIMEOUT`); a PUT gets a second more per MB.
    public var timeout: Duration = .seconds(10)

    /// Without `endpoint`, AWS in `region`, virtual-hosted; with one, path-style unless told otherwise,
    /// since that is what MinIO and most self-hosted stores expect.
    public init(
        endpoint: URL? = nil, bucket: String, region: String = "us-east-1", pathStyle: Bool? = nil,
        credentials: SigV4Signer.Credentials, timeout: Duration = .seconds(10)
    ) {
        self.endpoint = endpoint ?? URL(string: "https://s3.\(region).amazonaws.com")!
        self.bucket = bucket
        self.region = region
        self.pathStyle = pathStyle ?? (endpoint != nil)
        self.credentials = credentials
        self.timeout = timeout
    }

    /// The URL of the object at `key`, or of the bucket itself when `key` is nil.
    public func url(key: String? = nil, query: String? = nil) -> URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: true)!
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        if pathStyle {
            path += "/" + SigV4Signer.encode(bucket)
        } else {
            components.host = "\(bucket).\(components.host ?? "")"
        }
        path += "/"
        if let key {
            path += key.split(separator: "/", omittingEmptySubsequences: false).map { SigV4Signer.encode(String($0)) }
                .joined(separator: "/")
        }
        components.percentEncodedPath = path
        components.percentEncodedQuery = query
        return components.url!
    }

    /// The checks a bad setting fails, in words an operator can act on; nil when it looks right.
    public var problem: String? {
        guard let scheme = endpoint.scheme?.lowercased(), scheme == "http" || scheme == "https", endpoint.host != nil
        else { return "FEEDS_S3_ENDPOINT \(endpoint.absoluteString) is not an http(s) URL" }
        // S3's own rule for bucket names, which every compatible store keeps.
        let allowed = bucket.utf8.allSatisfy {
            (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x2E
        }
        guard (3...63).contains(bucket.count), allowed else {
            return "FEEDS_S3_BUCKET \"\(bucket)\" is not a bucket name (3-63 lower-case letters, digits, '.', '-')"
        }
        guard !region.isEmpty else { return "FEEDS_S3_REGION is empty" }
        guard !credentials.accessKeyID.isEmpty, !credentials.secretAccessKey.isEmpty else {
            return "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are required with FEEDS_CDN=s3"
        }
        return nil
    }
}
