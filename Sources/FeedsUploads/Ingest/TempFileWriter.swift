import FeedsCore
import FeedsMedia
import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// Streams one file part to a temp file, hashing and counting as it goes, so that no file is
/// ever held in memory and the size limit stops it the moment it is crossed. A JPEG loses its
/// metadata on the way when the app strips it, so it is written and hashed once.
package struct TempFileWriter: ~Copyable {
    let url: URL
    private let descriptor: Int32
    private let hasher = BackgroundHasher()
    /// Bytes received, which the limit counts.
    private(set) var size: Int64 = 0
    /// Bytes written.
    private var stored: Int64 = 0
    private var closed = false
    /// Set when stripping; other files pass through it unchanged.
    private var jpeg: JPEGMetadataStream?
    private(set) var metadata = ReceivedFile.Metadata.asSent
    /// Bytes up to here have been handed to the device's writeback already.
    private var flushedUpTo: Int64 = 0

    /// The store flushes every file to the device before the upload is acknowledged. Starting the
    /// writeback every few megabytes while the upload streams leaves that flush little to wait
    /// for at the end.
    static let writebackStep: Int64 = 8 << 20

    init(in directory: URL, strippingJPEG: Bool) throws {
        if strippingJPEG { jpeg = JPEGMetadataStream(passingOtherFilesThrough: true) }
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
        guard var stream = jpeg else { return try await append(bytes) }
        do {
            let outputs = try bytes.withUnsafeReadableBytes { try stream.feed($0) }
            jpeg = stream
            try await append(outputs, of: bytes)
        } catch let error as FeedsError where error.kind == .input {
            // Refused once checked; the rest is written as sent.
            (jpeg, metadata) = (nil, .broken(error))
            try await append(bytes)
        }
    }

    /// Writes what a JPEG's metadata stream gave for `chunk`.
    private mutating func append(_ outputs: [JPEGMetadataStream.Output], of chunk: ByteBuffer) async throws {
        for output in outputs {
            switch output {
            case .chunk(let range):
                try await append(chunk.getSlice(at: chunk.readerIndex + range.lowerBound, length: range.count)!)
            case .made(let bytes):
                try await append(ByteBuffer(bytes: bytes))
            }
        }
    }

    /// Hashes and writes `bytes`.
    private mutating func append(_ bytes: ByteBuffer) async throws {
        stored += Int64(bytes.readableBytes)
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
        if stored - flushedUpTo >= Self.writebackStep {
            // On Linux, DONTNEED on pages still dirty starts their writeback and returns (it drops
            // only pages already clean, and these are not); the fsync later is what makes the file
            // durable. (`sync_file_range`, the direct way, is hidden from Swift behind _GNU_SOURCE.)
            _ = posix_fadvise(descriptor, off_t(flushedUpTo), off_t(stored - flushedUpTo), POSIX_FADV_DONTNEED)
            flushedUpTo = stored
        }
    }

    /// Closes the file and returns its size and SHA-256 (hex) as written.
    consuming func finish() async throws -> (size: Int64, sha256: String, metadata: ReceivedFile.Metadata) {
        if var stream = jpeg {
            do {
                try await append(try stream.finish(), of: ByteBuffer())
                metadata = stream.isJPEG ? .stripped : .asSent
            } catch let error as FeedsError where error.kind == .input {
                metadata = .broken(error)
            } catch {
                discard()
                throw error
            }
        }
        closed = true
        // The rest of the writeback starts now, to run while the file is checked and recorded.
        _ = posix_fadvise(descriptor, off_t(flushedUpTo), 0, POSIX_FADV_DONTNEED)
        guard close(descriptor) == 0 else { throw FeedsError(.internal, "cannot close temp file") }
        return (stored, await hasher.finish(), metadata)
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
    /// Writes a whole part body to a new temp file and returns its size and hash (and what became
    /// of a JPEG's metadata when `strippingJPEG`); the file is removed when anything goes wrong.
    package static func write<Chunks: AsyncSequence>(
        _ chunks: Chunks, to directory: URL, limit: SizeLimit, strippingJPEG: Bool = false
    ) async throws -> (url: URL, size: Int64, sha256: String, metadata: ReceivedFile.Metadata)
    where Chunks.Element == ByteBuffer {
        var writer = try TempFileWriter(in: directory, strippingJPEG: strippingJPEG)
        do {
            for try await chunk in chunks { try await writer.write(chunk, limit: limit) }
        } catch {
            writer.discard()
            throw error
        }
        let url = writer.url
        let (size, sha256, metadata) = try await writer.finish()
        return (url, size, sha256, metadata)
    }
}
