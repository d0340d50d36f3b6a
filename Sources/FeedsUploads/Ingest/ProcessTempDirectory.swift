import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process's own folder for upload temp files, `tmp/p-<uuid>`, held by an exclusive `flock`
/// on its `.lock` for as long as the process lives. The kernel drops the lock when the process
/// dies however it dies, so a folder whose lock can be taken belongs to no live process: what a
/// crash left is removed at the next start (`removeAbandoned`), while nodes sharing a data
/// directory never touch each other's files.
package final class ProcessTempDirectory: Sendable {
    package let url: URL
    private let lock: Int32

    static let prefix = "p-"
    static let lockName = ".lock"

    /// Makes and locks a new folder under `root`.
    package init(root: URL) throws {
        let url = root.appendingPathComponent(Self.prefix + UUID().uuidString.lowercased())
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let fd = open(url.appendingPathComponent(Self.lockName).path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            if fd >= 0 { close(fd) }
            throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: url.path])
        }
        self.url = url
        self.lock = fd
    }

    /// Removes the folder when the pipeline that used it goes (a test's server, say).
    deinit {
        try? FileManager.default.removeItem(at: url)
        close(lock)
    }

    /// Removes the folders under `root` whose process is gone, and returns how many files they held.
    @discardableResult
    package static func removeAbandoned(in root: URL) -> Int {
        var removed = 0
        for folder in folders(in: root) where isAbandoned(folder) {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0 != lockName }
            if (try? FileManager.default.removeItem(at: folder)) != nil { removed += files?.count ?? 0 }
        }
        return removed
    }

    /// The per-process folders under `root`, live or not.
    package static func folders(in root: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) }.map { root.appendingPathComponent($0) }
    }

    /// Whether nobody holds the folder's lock: the lock is taken (and let go) to find out.
    static func isAbandoned(_ folder: URL) -> Bool {
        let fd = open(folder.appendingPathComponent(lockName).path, O_RDWR | O_CLOEXEC)
        // No lock file: a folder being made this instant, or not one of ours; leave it.
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) == 0
    }
}
