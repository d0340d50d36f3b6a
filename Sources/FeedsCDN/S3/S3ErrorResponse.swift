import FeedsCore
import Foundation

/// A store's refusal: the status, and the `<Code>` and `<Message>` of S3's XML error body.
public struct S3ErrorResponse: Sendable, Hashable {
    public var status: Int
    public var code: String
    public var message: String
    /// Where the store says the bucket lives (`x-amz-bucket-region`), when it says.
    public var bucketRegion: String?

    /// Reads the error out of a response body; a body that is not S3's XML leaves the code empty.
    public init(status: Int, body: String, bucketRegion: String? = nil) {
        self.status = status
        self.code = Self.element("Code", in: body) ?? ""
        self.message = Self.element("Message", in: body) ?? ""
        self.bucketRegion = bucketRegion
    }

    /// Throttling, the store's own faults and request timeouts pass; the uploader retries them.
    public var isTransient: Bool {
        status >= 500 || status == 429 || status == 408
            || ["SlowDown", "Throttling", "ThrottlingException", "RequestTimeout", "InternalError", "ServiceUnavailable"]
                .contains(code)
    }

    /// Bad credentials, a missing bucket, the wrong region: nothing passes until an operator acts.
    public var isConfigurationError: Bool {
        status == 403 || status == 401 || code == "NoSuchBucket" || code == "PermanentRedirect"
            || code == "AuthorizationHeaderMalformed" || code == "InvalidAccessKeyId"
    }

    /// What went wrong and, for configuration errors, what to change.
    public func explanation(_ configuration: S3Configuration) -> String {
        let store = "\(configuration.endpoint.absoluteString) bucket \(configuration.bucket)"
        let said = code.isEmpty ? "HTTP \(status)" : "\(code) (HTTP \(status))"
        let fix: String
        switch code {
        case "NoSuchBucket":
            fix = "the bucket does not exist: create it, or set FEEDS_S3_BUCKET to one that does"
        case "InvalidAccessKeyId":
            fix = "the store does not know this access key: check AWS_ACCESS_KEY_ID"
        case "SignatureDoesNotMatch":
            fix = "the signature does not verify: check AWS_SECRET_ACCESS_KEY"
        case "ExpiredToken", "InvalidToken", "TokenRefreshRequired":
            fix = "the session token is expired or invalid: renew AWS_SESSION_TOKEN"
        case "RequestTimeTooSkewed":
            fix = "this machine's clock is off by more than 15 minutes: fix the clock"
        case "PermanentRedirect", "AuthorizationHeaderMalformed":
            fix =
                "the bucket lives in another region: set FEEDS_S3_REGION\(bucketRegion.map { "=\($0)" } ?? " to the bucket's region")"
        case "AccessDenied", "AllAccessDisabled":
            fix = "the credentials may not use this bucket: grant s3:PutObject, s3:GetObject, s3:DeleteObject and s3:ListBucket"
        default:
            if status == 403 {
                fix = "the store refuses these credentials: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
            } else if status == 404 {
                fix = "the bucket was not found: check FEEDS_S3_ENDPOINT, FEEDS_S3_BUCKET and FEEDS_S3_PATH_STYLE"
            } else {
                fix = message.isEmpty ? "the store refused the request" : message
            }
        }
        return "the S3 store at \(store) answered \(said): \(fix)"
    }

    /// The error as the uploader sees it.
    public func cdnError(_ configuration: S3Configuration) -> CDNError {
        CDNError(transient: isTransient && !isConfigurationError, explanation(configuration))
    }

    static func element(_ name: String, in body: String) -> String? {
        guard let start = body.range(of: "<\(name)>"),
            let end = body.range(of: "</\(name)>", range: start.upperBound..<body.endIndex)
        else { return nil }
        return String(body[start.upperBound..<end.lowerBound])
    }
}
