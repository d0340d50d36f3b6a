import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few system calls the local CDN needs, throwing `SystemCallError` so that failures keep
/// their `errno` (which decides transient or permanent). All of them block: call off the
/// cooperative pool.
enum FileSystem {
    /// Creates `path` and any missing parents; an existing directory is fine.
    static func makeDirectories(_ path: String) throws {
        if mkdir(path, 0o755) == 0 { return }
        switch errno {
        case EEXIST:
            return
        case ENOENT:
            let parent = (path as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != path else { throw SystemCallError(call: "mkdir", errno: ENOENT) }
            try makeDirectories(parent)
            if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
            throw SystemCallError(call: "mkdir", errno: errno)
        case let failure:
            throw SystemCallError(call: "mkdir", errno: failure)
        }
    }

    /// Renames `source` to `destination` atomically, replacing whatever was there.
    static func move(_ source: String, to destination: String) throws {
        if rename(source, destination) != 0 { throw SystemCallError(call: "rename", errno: errno) }
    }

    /// Removes a file; one that is already gone is fine.
    static func removeFile(_ path: String) throws {
        if unlink(path) != 0, errno != ENOENT { throw SystemCallError(call: "unlink", errno: errno) }
    }

    /// Removes a directory if it is empty; a missing or non-empty one is left as it is.
    static func removeDirectoryIfEmpty(_ path: String) throws {
        if rmdir(path) != 0, ![ENOENT, ENOTEMPTY, EEXIST].contains(errno) {
            throw SystemCallError(call: "rmdir", errno: errno)
        }
    }

    /// Flushes a file's or a directory's contents to the device, so a rename into it survives a crash.
    static func synchronise(_ path: String) throws {
        let descriptor = try openFile(path, O_RDONLY)
        defer { close(descriptor) }
        if fsync(descriptor) != 0 { throw SystemCallError(call: "fsync", errno: errno) }
    }

    /// Copies `source` to a new file at `destination` (which must not exist) in bounded memory,
    /// then flushes it to the device.
    static func copyDurably(_ source: String, to destination: String) throws {
        let input = try openFile(source, O_RDONLY)
        defer { close(input) }
        let output = try openFile(destination, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        defer { close(output) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(call: "read", errno: errno)
            }
            if count == 0 { break }
            try writeAll(output, UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        if fsync(output) != 0 { throw SystemCallError(call: "fsync", errno: errno) }
    }

    /// Writes `data` to a new file at `path` (which must not exist) and flushes it to the device.
    static func writeDurably(_ data: Data, to path: String) throws {
        let output = try openFile(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        defer { close(output) }
        try data.withUnsafeBytes { try writeAll(output, $0) }
        if fsync(output) != 0 { throw SystemCallError(call: "fsync", errno: errno) }
    }

    /// The contents of a small file, or nil when there is none.
    static func readSmallFile(_ path: String, limit: Int) throws -> Data? {
        let input: Int32
        do {
            input = try openFile(path, O_RDONLY)
        } catch let error as SystemCallError where error.errno == ENOENT {
            return nil
        }
        defer { close(input) }
        var data = Data(count: limit)
        var total = 0
        while total < limit {
            let count = data.withUnsafeMutableBytes { read(input, $0.baseAddress! + total, limit - total) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(call: "read", errno: errno)
            }
            if count == 0 { break }
            total += count
        }
        return data.prefix(total)
    }

    /// What `lstat` says about a regular file, or nil when there is none (or something else is there).
    static func regularFile(_ path: String) throws -> FileStatus? {
        var status = stat()
        if lstat(path, &status) != 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemCallError(call: "lstat", errno: errno)
        }
        guard status.st_mode & S_IFMT == S_IFREG else { return nil }
        #if canImport(Darwin)
            let modified = status.st_mtimespec
        #else
            let modified = status.st_mtim
        #endif
        return FileStatus(
            size: Int64(status.st_size), modifiedSeconds: Int64(modified.tv_sec), modifiedNanoseconds: Int64(modified.tv_nsec))
    }

    /// Opens `path` for reading; the caller closes the descriptor.
    static func openForReading(_ path: String) throws -> Int32 {
        try openFile(path, O_RDONLY)
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    static func readChunk(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw SystemCallError(call: "read", errno: errno) }
        }
    }

    /// Closes a descriptor this process opened; nothing useful can be done when that fails.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    private static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) throws -> Int32 {
        while true {
            let descriptor = open(path, flags | O_CLOEXEC, mode)
            if descriptor >= 0 { return descriptor }
            if errno != EINTR { throw SystemCallError(call: "open", errno: errno) }
        }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(call: "write", errno: errno)
            }
            offset += count
        }
    }
}

/// The size and modification time of a regular file.
struct FileStatus: Sendable, Hashable {
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64

    var modified: Date {
        Date(timeIntervalSince1970: Double(modifiedSeconds) + Double(modifiedNanoseconds) / 1_000_000_000)
    }
}
