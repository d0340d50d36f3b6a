import FeedsCore
import Foundation

/// Where a key's bytes and metadata live under the CDN root: `{root}/{hex}/{name}` and the
/// sidecar `{root}/{hex}/.{name}.meta`. Sanitised names never start with a dot, so neither the
/// sidecar nor a temporary file can collide with an object.
struct ObjectPaths: Sendable, Hashable {
    let directory: String
    let file: String
    let metadata: String
    private let name: String

    /// Nil when a part of the key could leave its directory. `ObjectKey` already rules that out;
    /// this check keeps it true here even if that type ever loosens.
    init?(root: String, key: ObjectKey) {
        let parts = key.rawValue.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\0") && !$0.contains("\\") })
        else { return nil }
        self.directory = root + "/" + parts[0]
        self.name = parts[1]
        self.file = directory + "/" + name
        self.metadata = directory + "/." + name + ".meta"
    }

    /// A fresh name beside the object, to write to before renaming into place.
    func temporary() -> String {
        directory + "/." + name + ".tmp-" + UUID().uuidString
    }
}
