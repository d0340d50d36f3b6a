import Crypto
import FeedsCore
import FeedsHTTP
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsServer

/// The reconciliation sweep (in `feeds gc`, and every few hours in the server): objects in the
/// store that no record names, or whose record says deleted, go; everything a record holds stays.
@Suite struct ReconcileTests {
    @Test(arguments: Backend.allCases) func objectsNoRecordHoldsAreDeletedAndTheRestKept(backend: Backend) async throws {
        try await TestServer.run(backend: backend, configure: { $0.orphanGrace = .zero }) { server in
            let kept = try await server.uploadFile(as: "alice", name: "kept.txt")
            let gone = try await server.uploadFile(as: "alice", name: "gone.txt")
            #expect(
                try await server.api(.DELETE, "/uploads/file", as: "alice", query: "&url=\(queryEncoded(gone))").status == 200)

            // Bytes no record names, and bytes landing again under the deleted object's key.
            let store = try makeCDNBackend(server.configuration, logger: TestDatabase.logger).client
            let bytes = Data("orphan\n".utf8)
            let sha256 = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            let planted = [ObjectKey(fileName: "orphan.txt"), try #require(ObjectKey(rawValue: try server.objectKey(of: gone)))]
            for key in planted {
                // The local store moves the file in: one copy per object.
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("orphan-\(UUID().uuidString)")
                try bytes.write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let local = LocalFile(
                    url: file, fileName: "orphan.txt", size: Int64(bytes.count), sha256: sha256, mimeType: "text/plain")
                _ = try await store.upload(local, key: key, progress: { _ in })
            }
            #expect(try await server.storedObjects().count == 3)

            let report = try await server.sweep()
            #expect(report.orphans == 2)
            #expect(try await server.storedObjects() == [try server.objectKey(of: kept)])
            #expect(try await server.fetch(kept).status == 200)
            // Nothing left to find the second time.
            #expect(try await server.sweep().orphans == 0)
        }
    }
}
