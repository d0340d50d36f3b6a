import FeedsCDN
import HTTPTypes
import NIOCore
import Synchronization

/// Small stored objects kept in memory with their response headers, so that the popular ones
/// (avatars, thumbnails) are served without touching the disk beyond a `stat`
/// (`LocalDiskCDN.stillStored`, which finds an object deleted here or by another node). Within a
/// byte budget, least recently used out first. Keyed by `key(_:parameters:)`.
package final class HotObjects: Sendable {
    /// An object, its bytes, and the headers every 200 for it carries.
    struct Entry: Sendable {
        let object: StoredObject
        let bytes: ByteBuffer
        let fields: HTTPFields
    }

    /// The most bytes kept; 0 keeps nothing.
    let budget: Int
    /// The largest object kept.
    let largest: Int

    private struct State {
        var entries: [String: (entry: Entry, lastUsed: UInt64)] = [:]
        var used = 0
        var tick: UInt64 = 0
    }
    private let state = Mutex(State())

    package init(budget: Int, largest: Int = 256 << 10) {
        self.budget = budget
        self.largest = min(largest, budget)
    }

    /// Whether an object of `size` bytes would be kept (none when the budget is 0).
    func accepts(size: Int64) -> Bool {
        budget > 0 && size <= Int64(largest)
    }

    func entry(for key: String) -> Entry? {
        state.withLock { state in
            guard let found = state.entries[key] else { return nil }
            state.tick += 1
            state.entries[key]?.lastUsed = state.tick
            return found.entry
        }
    }

    /// The key of an object, or of a resized image: the object's key and its `name=value`
    /// parameters, sorted.
    static func key<Pair: StringProtocol>(_ key: String, parameters: [Pair]) -> String {
        guard !parameters.isEmpty else { return key }
        return key + "?" + parameters.sorted().joined(separator: "&")
    }

    func keep(_ object: StoredObject, bytes: ByteBuffer, fields: HTTPFields, as key: String) {
        guard bytes.readableBytes == object.size, accepts(size: object.size) else { return }
        let entry = Entry(object: object, bytes: bytes, fields: fields)
        state.withLock { state in
            state.tick += 1
            if let old = state.entries.updateValue((entry, state.tick), forKey: key) {
                state.used -= old.entry.bytes.readableBytes
            }
            state.used += bytes.readableBytes
            guard state.used > budget else { return }
            // Out of room: drop the least recently used down to 90% of the budget, in one pass.
            for (key, value) in state.entries.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) {
                guard state.used > budget * 9 / 10 else { break }
                state.entries[key] = nil
                state.used -= value.entry.bytes.readableBytes
            }
        }
    }

    /// Forgets an object and every resize of it: the object is gone.
    package func purge(_ key: String) {
        state.withLock { state in
            for (name, held) in state.entries where name == key || name.hasPrefix(key + "?") {
                state.entries[name] = nil
                state.used -= held.entry.bytes.readableBytes
            }
        }
    }

    func forget(_ key: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.used -= old.entry.bytes.readableBytes }
        }
    }

    /// Bytes held, for tests.
    var usedBytes: Int { state.withLock { $0.used } }
}
