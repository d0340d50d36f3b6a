import FeedsCore
import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// Streams one file part to a temp file, hashing and counting as it goes, so that no file is
/// ever held in memory and the size limit stops it the moment it is crossed.
package struct TempFileWriter: ~Copyable {
    let url: URL
    private let descriptor: Int32
    private let hasher = BackgroundHasher()
    private(set) var size: Int64 = 0
    private var closed = false
    /// Bytes up to here have been handed to the device's writeback already.
    private var flushedUpTo: Int64 = 0

    /// The store flushes every file to the device before the upload is acknowledged. Starting the
    /// writeback every few megabytes while the upload streams leaves that flush little to wait
    /// for at the end.
    static let writebackStep: Int64 = 8 << 20

    init(in directory: URL) throws {
        url = directory.appendingPathComponent("upload-\(UUID().uuidString.lowercased())")
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw FeedsError(.internal, "cannot create temp file \(url.path): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        if !closed { close(descriptor) }
    }

    /// Appends bytes; past `limit` the file is removed and the request refused with 413.
    mutating func write(_ bytes: ByteBuffer, limit: SizeLimit) async throws {
        size += Int64(bytes.readableBytes)
        guard size <= limit.bytes else {
            discard()
            throw FeedsError(.payloadTooLarge, "the file is over \(limit.rule) of \(limit.bytes) bytes")
        }
        try await hasher.update(bytes)
        try bytes.withUnsafeReadableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    let reason = String(cString: strerror(errno))
                    throw FeedsError(.internal, "cannot write temp file: \(reason)")
                }
                offset += written
            }
        }
        if size - flushedUpTo >= Self.writebackStep {
            // On Linux, DONTNEED on pages still dirty starts their writeback and returns (it drops
            // only pages already clean, and these are not); the fsync later is what makes the file
            // durable. (`sync_file_range`, the direct way, is hidden from Swift behind _GNU_SOURCE.)
            _ = posix_fadvise(descriptor, off_t(flushedUpTo), off_t(size - flushedUpTo), POSIX_FADV_DONTNEED)
            flushedUpTo = size
        }
    }

    /// Closes the file and returns its size and SHA-256 (hex).
    consuming func finish() async throws -> (size: Int64, sha256: String) {
        closed = true
        // The rest of the writeback starts now, to run while the file is checked and recorded.
        _ = posix_fadvise(descriptor, off_t(flushedUpTo), 0, POSIX_FADV_DONTNEED)
        guard close(descriptor) == 0 else { throw FeedsError(.internal, "cannot close temp file") }
        return (size, await hasher.finish())
    }

    /// Closes and removes the file.
    mutating func discard() {
        if !closed {
            close(descriptor)
            closed = true
        }
        unlink(url.path)
    }
}

extension TempFileWriter {
    /// Writes a whole part body to a new temp file and returns its size and hash; the file is
    /// removed when anything goes wrong.
    package static func write<Chunks: AsyncSequence>(_ chunks: Chunks, to directory: URL, limit: SizeLimit) async throws -> (
        url: URL, size: Int64, sha256: String
    ) where Chunks.Element == ByteBuffer {
        var writer = try TempFileWriter(in: directory)
        do {
            for try await chunk in chunks { try await writer.write(chunk, limit: limit) }
        } catch {
            writer.discard()
            throw error
        }
        let url = writer.url
        let (size, sha256) = try await writer.finish()
        return (url, size, sha256)
    }
}
