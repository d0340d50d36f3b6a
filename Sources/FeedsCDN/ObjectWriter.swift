import FeedsCore
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Puts one object in place on disk: the sidecar first, then the bytes, each renamed into place,
/// so a reader finds a whole object with its metadata or nothing. Blocking.
struct ObjectWriter {
    let paths: ObjectPaths
    let key: ObjectKey
    let logger: Logger

    /// Stores the temp file at `source` with `metadata`; `source` is gone when this returns.
    func store(source: String, metadata: ObjectMetadata) throws {
        do {
            // A retry after a late failure (flushing the directory) finds the work done.
            if try isAlreadyStored(source: source, metadata: metadata) { return }
            try FileSystem.makeDirectories(paths.directory)
            try writeSidecar(metadata)
            try moveBytes(from: source)
            // Flushed before returning: once the caller records the object, it must survive a crash.
            try FileSystem.synchronise(paths.file)
            try FileSystem.synchronise(paths.directory)
        } catch let error as SystemCallError {
            removeHalfObject()
            throw error.cdnError("storing", key: key)
        }
    }

    private func isAlreadyStored(source: String, metadata: ObjectMetadata) throws -> Bool {
        guard access(source, F_OK) != 0, errno == ENOENT,
            let status = try FileSystem.regularFile(paths.file), status.size == metadata.size,
            let data = try FileSystem.readSmallFile(paths.metadata, limit: ObjectMetadata.sizeLimit)
        else { return false }
        return (try? JSONDecoder().decode(ObjectMetadata.self, from: data)) == metadata
    }

    private func writeSidecar(_ metadata: ObjectMetadata) throws {
        let temporary = paths.temporary()
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try FileSystem.writeDurably(try encoder.encode(metadata), to: temporary)
            try FileSystem.move(temporary, to: paths.metadata)
        } catch {
            try? FileSystem.removeFile(temporary)
            throw error
        }
    }

    private func moveBytes(from source: String) throws {
        do {
            try FileSystem.move(source, to: paths.file)
        } catch let error as SystemCallError where error.errno == EXDEV {
            logger.debug("temp directory is on another file system; copying", metadata: ["key": "\(key)"])
            let temporary = paths.temporary()
            do {
                try FileSystem.copyDurably(source, to: temporary)
                try FileSystem.move(temporary, to: paths.file)
            } catch {
                try? FileSystem.removeFile(temporary)
                throw error
            }
            try FileSystem.removeFile(source)
        }
    }

    /// After a failure: a sidecar without bytes is no object, so it goes, with its directory.
    private func removeHalfObject() {
        guard (try? FileSystem.regularFile(paths.file)) == nil else { return }
        try? FileSystem.removeFile(paths.metadata)
        try? FileSystem.removeDirectoryIfEmpty(paths.directory)
    }
}
