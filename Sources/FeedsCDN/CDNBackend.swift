import FeedsCore

/// The configured store and how `/cdn/{key}` reads from it: the server serves a local disk's
/// files itself, and redirects reads of an S3-compatible store to its presigned URLs. The server
/// picks its routes from this, never by asking which type a `CDNClient` is.
public enum CDNBackend: Sendable {
    /// Files under the data directory, served by this server (`Range`, `ETag`, the hot cache).
    case localDisk(LocalDiskCDN)
    /// Objects in a bucket, read through short-lived presigned URLs of the store.
    case s3(S3CDN)

    /// The store, for uploads and deletes.
    public var client: any CDNClient {
        switch self {
        case .localDisk(let cdn): cdn
        case .s3(let cdn): cdn
        }
    }
}
