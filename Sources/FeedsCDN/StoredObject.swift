import FeedsCore
import Foundation

/// An object on local disk, as the HTTP layer needs it to serve `GET /cdn/{key}`.
public struct StoredObject: Sendable, Hashable {
    /// The object's key.
    public var key: ObjectKey
    /// The absolute file-system path of the bytes.
    public var path: String
    /// Bytes on disk.
    public var size: Int64
    /// The type sniffed at upload, or `application/octet-stream` when its record is lost.
    public var mimeType: String
    /// A strong ETag, quoted: the SHA-256 of the bytes, or size and modification time when the
    /// recorded hash cannot be trusted.
    public var etag: String
    /// When the bytes were last written, for `Last-Modified`.
    public var modifiedAt: Date

    /// An object description; the CDN makes these, tests may too.
    public init(key: ObjectKey, path: String, size: Int64, mimeType: String, etag: String, modifiedAt: Date) {
        self.key = key
        self.path = path
        self.size = size
        self.mimeType = mimeType
        self.etag = etag
        self.modifiedAt = modifiedAt
    }
}
