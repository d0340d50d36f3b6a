import AsyncHTTPClient
import Crypto
import FeedsCore
import Foundation
import NIOCore
import NIOHTTP1

/// Signed requests to one S3-compatible bucket over AsyncHTTPClient: the few S3 REST calls the
/// CDN needs, and the bucket calls the tests need.
public struct S3Client: Sendable {
    /// A request body and the SHA-256 it is signed with.
    public enum Body: Sendable {
        case empty
        case bytes(Data)
        /// A file streamed from disk, with the hash ingest computed; `progress` gets bytes sent.
        case file(path: String, size: Int64, sha256: String, progress: @Sendable (Int64) -> Void)
    }

    /// The store's answer; the body is read only for errors and small replies.
    public struct Response: Sendable {
        public var status: Int
        public var headers: HTTPHeaders
        public var body: String
    }

    public let configuration: S3Configuration
    public let signer: SigV4Signer

    public init(configuration: S3Configuration) {
        self.configuration = configuration
        self.signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region, service: "s3")
    }

    /// Sends one signed request for `key` (nil: the bucket) and returns the answer, whatever its
    /// status. Network failures and timeouts throw as AsyncHTTPClient reports them; the whole
    /// exchange has `timeout`, the configuration's unless given.
    public func send(
        _ method: HTTPMethod, key: String? = nil, query: String? = nil, headers: [(name: String, value: String)] = [],
        body: Body = .empty, timeout: Duration? = nil
    ) async throws -> Response {
        let url = configuration.url(key: key, query: query)
        let payloadHash: String
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        switch body {
        case .empty:
            payloadHash = SigV4Signer.emptyPayloadHash
        case .bytes(let data):
            payloadHash = SigV4Signer.hex(SHA256.hash(data: data))
            request.body = .bytes(ByteBuffer(bytes: data))
        case .file(let path, let size, let sha256, let progress):
            payloadHash = sha256
            request.body = .stream(FileChunks(path: path, progress: progress), length: .known(size))
        }
        for (name, value) in signer.sign(
            method: method.rawValue, url: url, headers: headers, payloadHash: payloadHash, date: Date())
        {
            request.headers.add(name: name, value: value)
        }
        let response = try await Self.http.execute(request, timeout: TimeAmount(timeout ?? configuration.timeout))
        let buffer = try await response.body.collect(upTo: 1 << 20)
        return Response(
            status: Int(response.status.code), headers: response.headers, body: String(buffer: buffer))
    }

    /// The store's error for `response`, with what to fix.
    public func error(_ response: Response) -> S3ErrorResponse {
        S3ErrorResponse(
            status: response.status, body: response.body, bucketRegion: response.headers.first(name: "x-amz-bucket-region"))
    }

    /// One client for every bucket, living as long as the process (so never shut down): it pools
    /// connections, and follows no redirects, since a signed request is valid for one host only.
    static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(30)),
            decompression: .disabled)
        // A refused connection fails at once, rather than being retried until the connect timeout:
        // the uploader owns retrying, with backoff, and a store that is down answers 502 in moments.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
