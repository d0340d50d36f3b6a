import Crypto
import FeedsCore
import FeedsMedia
import Foundation

/// Takes location and identifying metadata out of an uploaded photo before it is stored, without
/// touching its pixels (`ImageMetadata`): the file is rewritten in place, with its new size and hash.
/// A JPEG is stripped as it arrives instead (`TempFileWriter`), so this is for PNG, WebP and HEIF.
package enum MetadataStripper {
    /// `file` without its metadata: the same file when there is none (or its type is not one of
    /// `ImageMetadata.strippedTypes`).
    package static func strip(_ file: LocalFile) throws -> LocalFile {
        guard ImageMetadata.strippedTypes.contains(file.mimeType) else { return file }
        // Mapped: a large photo is read from the page cache, not copied into memory.
        let original = try Data(contentsOf: file.url, options: .alwaysMapped)
        guard let pieces = try ImageMetadata.strip(original, mimeType: file.mimeType) else { return file }
        let rewritten = file.url.appendingPathExtension("stripped")
        guard FileManager.default.createFile(atPath: rewritten.path, contents: nil) else {
            throw FeedsError(.internal, "could not write \(rewritten.lastPathComponent)")
        }
        var done = false
        defer { if !done { try? FileManager.default.removeItem(at: rewritten) } }
        let handle = try FileHandle(forWritingTo: rewritten)
        var hasher = SHA256()
        var size: Int64 = 0
        do {
            for piece in pieces {
                let bytes: Data =
                    switch piece {
                    case .original(let range): original[range]
                    case .made(let made): Data(made)
                    }
                hasher.update(data: bytes)
                try handle.write(contentsOf: bytes)
                size += Int64(bytes.count)
            }
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        // rename(2) replaces the original in one step.
        guard rename(rewritten.path, file.url.path) == 0 else {
            throw FeedsError(.internal, "could not replace \(file.url.lastPathComponent): errno \(errno)")
        }
        done = true
        var stripped = file
        stripped.size = size
        stripped.sha256 = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        return stripped
    }
}
