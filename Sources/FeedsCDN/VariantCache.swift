import Crypto
import Foundation

/// Files made from stored objects (resized variants, and S3 originals fetched to resize), kept on
/// local disk within a byte budget, least recently used out first. A file that several requests
/// ask for at once is made once; the others wait for it.
public actor VariantCache {
    /// A file in the cache.
    public struct Entry: Sendable {
        public var path: String
        public var size: Int64
        public var mimeType: String
        /// A strong ETag: the name's hash, which names the source and the variant.
        public var etag: String
    }

    /// How a request got its file.
    public enum Outcome: String, Sendable {
        /// This request made it.
        case computed
        /// Another request was making it; this one waited.
        case coalesced
        /// It was there.
        case cached
    }

    private let directory: URL
    private let budget: Int64
    /// By id (the SHA-256 of the name), with the name when this process made the file.
    private var entries: [String: (entry: Entry, lastUsed: UInt64, name: String?)] = [:]
    /// Names already hashed to their ids, so that a hit costs no hashing.
    private var ids: [String: String] = [:]
    private var inFlight: [String: Task<Entry, any Error>] = [:]
    private var used: Int64 = 0
    private var tick: UInt64 = 0

    /// A cache in `directory` of at most `budget` bytes. What an earlier process left there is
    /// taken over, oldest first out; half-written files are removed.
    public init(directory: URL, budget: Int64) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.budget = budget
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        var found: [(String, Entry, Date)] = []
        for name in names {
            let path = directory.appendingPathComponent(name).path
            let parts = name.split(separator: ".")
            guard parts.count == 2, parts[0].count == 64, let type = Self.types[String(parts[1])],
                let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            else {
                try? FileManager.default.removeItem(atPath: path)
                continue
            }
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            let entry = Entry(path: path, size: size, mimeType: type, etag: "\"\(parts[0].prefix(32))\"")
            found.append((String(parts[0]), entry, attributes[.modificationDate] as? Date ?? .distantPast))
        }
        for (id, entry, _) in found.sorted(by: { $0.2 < $1.2 }) {
            tick += 1
            entries[id] = (entry, tick, nil)
            used += entry.size
        }
    }

    /// File suffixes by type, so that a file's name says its type when the cache is taken over.
    static let types = [
        "jpg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif", "bin": "application/octet-stream",
    ]

    /// Forgets the file for `name` (gone from disk: removed by hand, say), so that the next request makes it again.
    public func forget(_ name: String) {
        guard let id = ids[name] else { return }
        drop(id)
    }

    /// Removes the files of every name that starts with `prefix` (the variants of a deleted
    /// object), from disk as well.
    public func forget(prefix: String) {
        for (name, id) in ids where name.hasPrefix(prefix) {
            if let held = entries[id] { try? FileManager.default.removeItem(atPath: held.entry.path) }
            drop(id)
            ids[name] = nil
        }
    }

    /// The file for `name` (any text naming the source and the variant), made by `make` when it is
    /// not here: `make` writes the path it is given and returns the file's MIME type.
    public func file(
        _ name: String, make: @escaping @Sendable (_ path: String) async throws -> String
    ) async throws -> (Entry, Outcome) {
        let id = ids[name] ?? SHA256.hash(data: Data(name.utf8)).map { String(format: "%02x", $0) }.joined()
        if let held = entries[id] {
            tick += 1
            entries[id]?.lastUsed = tick
            entries[id]?.name = name
            ids[name] = id
            return (held.entry, .cached)
        }
        if let running = inFlight[id] { return (try await running.value, .coalesced) }
        let partial = directory.appendingPathComponent("partial-\(UUID().uuidString)").path
        let directory = directory
        let task = Task<Entry, any Error> {
            do {
                let mimeType = try await make(partial)
                let suffix = Self.types.first { $0.value == mimeType }?.key ?? "bin"
                let final = directory.appendingPathComponent("\(id).\(suffix)").path
                let size = try await BlockingIO.run {
                    try FileManager.default.moveItemReplacing(from: partial, to: final)
                    return (try FileManager.default.attributesOfItem(atPath: final)[.size] as? NSNumber)?.int64Value ?? 0
                }
                return Entry(path: final, size: size, mimeType: mimeType, etag: "\"\(id.prefix(32))\"")
            } catch {
                try? FileManager.default.removeItem(atPath: partial)
                throw error
            }
        }
        inFlight[id] = task
        defer { inFlight[id] = nil }
        let entry = try await task.value
        tick += 1
        entries[id] = (entry, tick, name)
        ids[name] = id
        used += entry.size
        evict(keeping: id)
        return (entry, .computed)
    }

    /// Drops least-recently-used files until the cache is within budget; the newest always stays.
    private func evict(keeping newest: String) {
        while used > budget, let oldest = entries.filter({ $0.key != newest }).min(by: { $0.value.lastUsed < $1.value.lastUsed })
        {
            // A reader that has the file open keeps reading it: unlinking leaves open descriptors be.
            try? FileManager.default.removeItem(atPath: oldest.value.entry.path)
            drop(oldest.key)
        }
    }

    private func drop(_ id: String) {
        guard let held = entries.removeValue(forKey: id) else { return }
        used -= held.entry.size
        if let name = held.name { ids[name] = nil }
    }
}

extension FileManager {
    /// Renames `source` over `destination` (atomic on one file system).
    func moveItemReplacing(from source: String, to destination: String) throws {
        guard rename(source, destination) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination])
        }
    }
}
