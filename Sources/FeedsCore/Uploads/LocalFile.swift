import Foundation

/// A file received and checked, waiting in the temp directory to be uploaded.
public struct LocalFile: Sendable, Hashable {
    /// The temp file.
    public var url: URL
    /// The name the client gave it (never used as a path).
    public var fileName: String
    /// Bytes on disk.
    public var size: Int64
    /// SHA-256 of the bytes, hex, computed while they were written.
    public var sha256: String
    /// The type sniffed from the bytes.
    public var mimeType: String

    public init(url: URL, fileName: String, size: Int64, sha256: String, mimeType: String) {
        self.url = url
        self.fileName = fileName
        self.size = size
        self.sha256 = sha256
        self.mimeType = mimeType
    }
}

/// What a CDN stored for a key.
public struct UploadedFile: Sendable, Hashable {
    public var key: ObjectKey
    public var size: Int64
    public var mimeType: String

    public init(key: ObjectKey, size: Int64, mimeType: String) {
        self.key = key
        self.size = size
        self.mimeType = mimeType
    }
}
