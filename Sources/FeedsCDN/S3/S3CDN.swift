import AsyncHTTPClient
import FeedsCore
import Foundation
import Logging
import NIOCore

/// The production CDN: objects in an S3-compatible bucket shared by every node. Uploads stream the
/// temp file from disk, signed with the SHA-256 ingest computed; reads get our own signed
/// `/cdn/{key}` URLs, which this server answers with a redirect to a short-lived presigned URL.
public struct S3CDN: CDNClient {
    public let client: S3Client
    /// Signs the `/cdn/{key}` URLs handed to clients (our format and lifetime, up to 14 days).
    public let signer: URLSigner
    /// 100 MB, the API's ceiling; one PUT takes up to 5 GB.
    public let maxAttachmentSize: Int64 = 104_857_600
    /// How long a presigned URL behind a redirect lives: long enough to start a download, and
    /// short, because anyone holding it may read the object.
    public static let redirectLifetime: TimeInterval = 600
    private let logger: Logger

    public init(configuration: S3Configuration, signer: URLSigner, logger: Logger = Logger(label: "feeds.cdn.s3")) {
        self.client = S3Client(configuration: configuration)
        self.signer = signer
        self.logger = logger
    }

    public var configuration: S3Configuration { client.configuration }

    /// PUTs the temp file under `key` with its type; the temp file stays for the caller to remove.
    public func upload(
        _ file: LocalFile, key: ObjectKey, progress: @escaping @Sendable (Double) -> Void
    ) async throws -> UploadedFile {
        guard file.size <= maxAttachmentSize else {
            throw CDNError(transient: false, "\(key) is \(file.size) bytes, over the \(maxAttachmentSize) byte limit")
        }
        progress(0)
        let size = file.size
        let body = S3Client.Body.file(
            path: file.url.path(percentEncoded: false), size: size, sha256: file.sha256,
            progress: { sent in progress(size == 0 ? 1 : Double(sent) / Double(size)) }
        )
        // Stored with the object, so the store serves it as this server would: typed, and downloaded unless plain media.
        var headers: [(name: String, value: String)] = [("content-type", file.mimeType)]
        if let disposition = ServingPolicy.contentDisposition(for: key, mimeType: file.mimeType) {
            headers.append(("content-disposition", disposition))
        }
        // The store's timeout plus a second a megabyte: a slow store fails the upload rather than holding it forever.
        let timeout = configuration.timeout + .seconds(size / 1_000_000)
        try await expectSuccess("storing \(key)") {
            try await client.send(.PUT, key: key.rawValue, headers: headers, body: body, timeout: timeout)
        }
        progress(1)
        return UploadedFile(key: key, size: file.size, mimeType: file.mimeType)
    }

    /// DELETEs the object; S3 answers a missing one with 204 too.
    public func delete(key: ObjectKey) async throws {
        // Its own task, so that a caller already cancelled (a client that went away) still
        // removes what it stored; the wait is bounded by the request timeout.
        try await Task {
            try await expectSuccess("deleting \(key)") { try await client.send(.DELETE, key: key.rawValue) }
        }.value
    }

    /// A signed `/cdn/{key}` URL of this server, valid until `expiresAt`.
    public func readURL(for key: ObjectKey, expiresAt: Date) -> URL {
        signer.url(for: key, expiresAt: expiresAt)
    }

    /// The bucket answers a signed listing of one key: reachable, and our credentials, bucket and
    /// region are right. (A listing rather than HEAD, because only a body names what is wrong.)
    public func checkReady() async throws {
        try await expectSuccess("checking the bucket") {
            try await client.send(.GET, query: "list-type=2&max-keys=1", timeout: min(configuration.timeout, .seconds(5)))
        }
    }

    /// ListObjectsV2 from `after` (keys come in order). Keys not of our form are not listed.
    public func list(after: ObjectKey?, limit: Int) async throws -> [ListedObject] {
        var query = "list-type=2&max-keys=\(max(1, min(limit, 1000)))"
        // Every key has a random directory of its own (`ObjectKey`), and "{dir}0" sorts after
        // "{dir}/{name}" and before any other directory: no `/` in the query, which some stores
        // (moto among them) sign differently.
        if let after { query += "&start-after=\(after.rawValue.prefix(32))0" }
        var body = ""
        try await expectSuccess("listing the bucket") {
            let response = try await client.send(.GET, query: query)
            body = response.body
            return response
        }
        return Self.listing(body)
    }

    /// The `<Contents>` of a ListObjectsV2 reply: each `<Key>` (our keys need no XML unescaping:
    /// hex, `/`, letters, digits, `.`, `-`, `_`) and `<LastModified>`.
    static func listing(_ xml: String) -> [ListedObject] {
        xml.components(separatedBy: "<Contents>").dropFirst().compactMap { entry in
            guard let key = S3ErrorResponse.element("Key", in: entry).flatMap(ObjectKey.init(rawValue:)),
                let modified = S3ErrorResponse.element("LastModified", in: entry).flatMap(RFC3339.date(from:))
            else { return nil }
            return ListedObject(key: key, modified: modified)
        }
    }

    /// A presigned URL of the store for `key`, valid for `redirectLifetime` and never past `notAfter`.
    public func presignedURL(for key: ObjectKey, method: String = "GET", notAfter: Date, now: Date = Date()) -> URL {
        let lifetime = max(1, min(Self.redirectLifetime, notAfter.timeIntervalSince(now)))
        return client.signer.presign(method: method, url: configuration.url(key: key.rawValue), expires: Int(lifetime), date: now)
    }

    /// Whether the exchange ran out of time (rather than being refused or cut).
    static func isTimeout(_ error: any Error) -> Bool {
        guard let error = error as? HTTPClientError else { return false }
        return [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error)
    }

    /// Runs one request; a non-2xx answer or a failed exchange becomes a `CDNError` that says
    /// whether to retry, and configuration errors are logged with what to fix.
    private func expectSuccess(_ action: String, _ send: () async throws -> S3Client.Response) async throws {
        let response: S3Client.Response
        do {
            response = try await send()
        } catch let error where Task.isCancelled || error is CancellationError {
            throw CancellationError()
        } catch {
            let message = "\(action): the S3 store at \(configuration.endpoint.absoluteString) did not answer (\(error))"
            logger.warning("S3 store unreachable", metadata: ["action": "\(action)", "error": "\(error)"])
            throw CDNError(transient: true, timedOut: Self.isTimeout(error), message)
        }
        guard !(200..<300).contains(response.status) else { return }
        let refusal = client.error(response)
        let explanation = refusal.explanation(configuration)
        if refusal.isConfigurationError {
            logger.error("S3 store misconfigured", metadata: ["action": "\(action)", "fix": "\(explanation)"])
        } else {
            logger.warning("S3 store refused", metadata: ["action": "\(action)", "error": "\(explanation)"])
        }
        throw refusal.cdnError(configuration)
    }
}
