import FeedsCDN
import FeedsCore
import Foundation
import Synchronization

/// A throw-away `$FEEDS_DATA_DIR` with `tmp/` (where ingest writes) and `cdn/` (the CDN root).
struct Scratch {
    let base: URL
    var temp: URL { base.appending(path: "tmp") }
    var root: URL { base.appending(path: "cdn") }
    let signer = URLSigner(publicURL: URL(string: "http://localhost:3030")!, apiSecret: "test-secret")

    init() throws {
        base = FileManager.default.temporaryDirectory.appending(path: "feeds-cdn-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base.appending(path: "tmp"), withIntermediateDirectories: true)
    }

    func cdn() -> LocalDiskCDN {
        LocalDiskCDN(root: root, signer: signer)
    }

    /// A temp file as ingest leaves it.
    func tempFile(_ bytes: Data, name: String = "photo.png", mimeType: String = "image/png") throws -> LocalFile {
        let url = temp.appending(path: UUID().uuidString)
        try bytes.write(to: url)
        // The CDN records the hash ingest computed; any 64 hex digits stand in for it here.
        let sha256 = (UUID().uuidString + UUID().uuidString).replacingOccurrences(of: "-", with: "").lowercased()
        return LocalFile(url: url, fileName: name, size: Int64(bytes.count), sha256: sha256, mimeType: mimeType)
    }

    /// Every path under the data directory, relative to it.
    func allPaths() -> Set<String> {
        let prefix = base.standardizedFileURL.path(percentEncoded: false)
        let enumerator = FileManager.default.enumerator(atPath: prefix)
        var paths = Set<String>()
        while let next = enumerator?.nextObject() as? String { paths.insert(next) }
        return paths
    }

    func remove() {
        try? FileManager.default.removeItem(at: base)
    }
}

/// Collects progress reports from any thread.
final class ProgressLog: Sendable {
    private let values = Mutex<[Double]>([])

    func record(_ value: Double) { values.withLock { $0.append(value) } }
    var all: [Double] { values.withLock { $0 } }
}
