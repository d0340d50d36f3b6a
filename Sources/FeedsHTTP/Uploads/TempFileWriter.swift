import Crypto
import FeedsCore
import Foundation
import OpenAPIRuntime

#if canImport(Glibc)
    import Glibc
#endif

/// Streams one file part to a temp file, hashing and counting as it goes, so that no file is
/// ever held in memory and the size limit stops it the moment it is crossed.
struct TempFileWriter: ~Copyable {
    let url: URL
    private let descriptor: Int32
    private var hasher = SHA256()
    private(set) var size: Int64 = 0
    private var closed = false

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
    mutating func write(_ bytes: ArraySlice<UInt8>, limit: SizeLimit) throws {
        size += Int64(bytes.count)
        guard size <= limit.bytes else {
            discard()
            throw FeedsError(.payloadTooLarge, "the file is over \(limit.rule) of \(limit.bytes) bytes")
        }
        hasher.update(data: bytes)
        try bytes.withUnsafeBytes { buffer in
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
    }

    /// Closes the file and returns its size and SHA-256 (hex).
    consuming func finish() throws -> (size: Int64, sha256: String) {
        closed = true
        guard close(descriptor) == 0 else { throw FeedsError(.internal, "cannot close temp file") }
        return (size, hasher.finalize().map { String(format: "%02x", $0) }.joined())
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
    static func write(_ body: HTTPBody, to directory: URL, limit: SizeLimit) async throws -> (
        url: URL, size: Int64, sha256: String
    ) {
        var writer = try TempFileWriter(in: directory)
        do {
            for try await chunk in body { try writer.write(chunk, limit: limit) }
        } catch {
            writer.discard()
            throw error
        }
        let url = writer.url
        let (size, sha256) = try writer.finish()
        return (url, size, sha256)
    }
}
