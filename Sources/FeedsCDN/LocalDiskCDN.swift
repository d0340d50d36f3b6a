import FeedsCore
import Foundation
import Logging
import NIOCore

/// The default CDN: objects as files under a root directory (`$FEEDS_DATA_DIR/cdn`), served by
/// this server at `/cdn/{key}` behind signed URLs.
public struct LocalDiskCDN: CDNClient {
    /// The directory holding every object.
    public let root: URL
    /// Signs the read URLs; the `/cdn` route verifies with the same signer.
    public let signer: URLSigner
    /// The largest object accepted: 100 MB, the API's ceiling for `size_limit`.
    public let maxAttachmentSize: Int64 = 104_857_600
    private let rootPath: String
    private let logger: Logger

    /// A CDN storing under `root` (created on first upload) and signing with `signer`.
    public init(root: URL, signer: URLSigner, logger: Logger = Logger(label: "feeds.cdn.local")) {
        self.root = root.standardizedFileURL
        var rootPath = self.root.path(percentEncoded: false)
        while rootPath.count > 1, rootPath.hasSuffix("/") { rootPath.removeLast() }
        self.rootPath = rootPath
        self.signer = signer
        self.logger = logger
    }

    /// Moves `file` to `key` (renamed when on the same file system, else copied and flushed), so
    /// a reader sees the whole object or none; the temp file is gone afterwards.
    public func upload(
        _ file: LocalFile, key: ObjectKey, progress: @escaping @Sendable (Double) -> Void
    ) async throws -> UploadedFile {
        guard file.size <= maxAttachmentSize else {
            throw CDNError(transient: false, "\(key) is \(file.size) bytes, over the \(maxAttachmentSize) byte limit")
        }
        let paths = try paths(for: key)
        progress(0)
        let metadata = ObjectMetadata(mimeType: file.mimeType, size: file.size, sha256: file.sha256)
        let source = file.url.path(percentEncoded: false)
        try await BlockingIO.run { [logger] in
            try ObjectWriter(paths: paths, key: key, logger: logger).store(source: source, metadata: metadata)
        }
        progress(1)
        return UploadedFile(key: key, size: file.size, mimeType: file.mimeType)
    }

    /// Removes the object and its sidecar; an object already gone is fine.
    public func delete(key: ObjectKey) async throws {
        guard let paths = ObjectPaths(root: rootPath, key: key) else { return }
        do {
            try await BlockingIO.run {
                // Bytes first: while they exist, so does their sidecar.
                try FileSystem.removeFile(paths.file)
                try FileSystem.removeFile(paths.metadata)
                try FileSystem.removeDirectoryIfEmpty(paths.directory)
            }
        } catch let error as SystemCallError {
            throw error.cdnError("deleting", key: key)
        }
    }

    /// A signed URL to this server's `/cdn/{key}`, valid until `expiresAt`.
    public func readURL(for key: ObjectKey, expiresAt: Date) -> URL {
        signer.url(for: key, expiresAt: expiresAt)
    }

    /// The objects under the root in key order: `{hex}/{name}` files, sidecars and temporary
    /// files (dot names) aside. Directories before `after`'s are skipped unread.
    public func list(after: ObjectKey?, limit: Int) async throws -> [ListedObject] {
        let root = rootPath
        return try await BlockingIO.run {
            let files = FileManager.default
            let directories = ((try? files.contentsOfDirectory(atPath: root)) ?? []).sorted()
            let start = after.map { String($0.rawValue.prefix(32)) } ?? ""
            var listed: [ListedObject] = []
            for directory in directories where directory >= start && !directory.hasPrefix(".") {
                for name in ((try? files.contentsOfDirectory(atPath: root + "/" + directory)) ?? []).sorted()
                where !name.hasPrefix(".") {
                    guard let key = ObjectKey(rawValue: directory + "/" + name), after.map({ key.rawValue > $0.rawValue }) ?? true,
                        let modified = try? files.attributesOfItem(atPath: root + "/" + key.rawValue)[.modificationDate] as? Date
                    else { continue }
                    listed.append(ListedObject(key: key, modified: modified))
                    if listed.count == limit { return listed }
                }
            }
            return listed
        }
    }

    public func localPath(for key: ObjectKey) -> String? {
        (try? object(for: key))??.path
    }

    /// Copies the object to `path` (the bytes are here already; resizes use `localPath`).
    public func download(_ key: ObjectKey, to path: String) async throws {
        guard let source = localPath(for: key) else { throw CDNError(transient: false, "no object \(key)") }
        try await BlockingIO.run {
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: source, toPath: path)
        }
    }

    /// The stored object at `key`, or nil when there is none. Blocks on the file system briefly
    /// (a `stat` and a small read).
    public func object(for key: ObjectKey) throws -> StoredObject? {
        guard let paths = ObjectPaths(root: rootPath, key: key) else { return nil }
        do {
            guard let status = try FileSystem.regularFile(paths.file) else { return nil }
            let metadata = try readMetadata(paths, key: key)
            // A hash recorded for other bytes must not become the ETag of these.
            let trusted = metadata.flatMap { $0.size == status.size ? $0 : nil }
            let etag = trusted.map { "\"\($0.sha256)\"" } ?? Self.fallbackETag(status)
            return StoredObject(
                key: key,
                path: paths.file,
                size: status.size,
                mimeType: metadata?.mimeType ?? "application/octet-stream",
                etag: etag,
                modifiedAt: status.modified
            )
        } catch let error as SystemCallError {
            throw error.cdnError("reading", key: key)
        }
    }

    /// Whether `object`'s file is still the one described (one `stat`): a copy kept in memory
    /// is right while it is, since keys never name other bytes.
    public func stillStored(_ object: StoredObject) -> Bool {
        guard let status = try? FileSystem.regularFile(object.path) else { return false }
        return status.size == object.size && status.modified == object.modifiedAt
    }

    /// Another file served for `key` (a resized image), described as the object it stands for; nil when missing.
    public func file(at path: String, key: ObjectKey, mimeType: String, etag: String) -> StoredObject? {
        guard let status = try? FileSystem.regularFile(path) else { return nil }
        return StoredObject(key: key, path: path, size: status.size, mimeType: mimeType, etag: etag, modifiedAt: status.modified)
    }

    /// A small object's bytes, read whole; nil when its file changed size meanwhile.
    public func bytes(of object: StoredObject) async throws -> ByteBuffer? {
        let (path, limit) = (object.path, Int(object.size) + 1)
        guard let data = try await BlockingIO.run({ try FileSystem.readSmallFile(path, limit: limit) }),
            data.count == object.size
        else { return nil }
        return ByteBuffer(bytes: data)
    }

    private static func fallbackETag(_ status: FileStatus) -> String {
        let parts = [status.size, status.modifiedSeconds, status.modifiedNanoseconds].map { String($0, radix: 16) }
        return "\"" + parts.joined(separator: "-") + "\""
    }

    private func paths(for key: ObjectKey) throws -> ObjectPaths {
        guard let paths = ObjectPaths(root: rootPath, key: key) else {
            throw CDNError(transient: false, "\(key) is not a storable key")
        }
        return paths
    }

    private func readMetadata(_ paths: ObjectPaths, key: ObjectKey) throws -> ObjectMetadata? {
        guard let data = try FileSystem.readSmallFile(paths.metadata, limit: ObjectMetadata.sizeLimit) else {
            logger.warning("object has no metadata sidecar", metadata: ["key": "\(key)"])
            return nil
        }
        do {
            return try JSONDecoder().decode(ObjectMetadata.self, from: data)
        } catch {
            logger.warning("object metadata sidecar is unreadable", metadata: ["key": "\(key)", "error": "\(error)"])
            return nil
        }
    }
}
