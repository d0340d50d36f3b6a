import AsyncHTTPClient
import FeedsPostgres
import FeedsTestSupport
import FeedsUploads
import Foundation
import NIOCore
import Testing

/// What a crash leaves behind is cleaned up by the next process: temp files of uploads cut
/// short, whatever their age. Files of a live process sharing the folder are left alone.
@Suite struct CrashRecoveryTests {
    @Test func aProcessKilledMidUploadLeavesNoTempFilesAfterItsRestart() async throws {
        try await TestServer.run { server in
            let first = try await FeedsNode(
                databaseURL: server.databaseURL, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
                port: try freeLoopbackPort())
            let temp = first.dataDirectory.appendingPathComponent("tmp")
            defer { try? FileManager.default.removeItem(at: first.dataDirectory) }

            // An upload that sends a quarter of its file and then stalls, until the process dies.
            let stall = AsyncStream<Void>.makeStream()
            let upload = Task {
                try await Self.stalledUpload(to: first.baseURL, token: try await server.token("alice"), until: stall.stream)
            }
            try await eventually("the upload's temp file to fill") { Self.tempFiles(in: temp).contains { $0.size > 0 } }
            try await first.crash()
            stall.continuation.finish()
            _ = await upload.result
            #expect(!Self.tempFiles(in: temp).isEmpty, "the crash left the upload's temp file")

            // The next process on the same data directory removes it at start.
            let second = try await FeedsNode(
                databaseURL: server.databaseURL, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
                port: try freeLoopbackPort(), dataDirectory: first.dataDirectory)
            defer { second.stop() }
            #expect(Self.tempFiles(in: temp).isEmpty, "\(Self.tempFiles(in: temp))")
            #expect(ProcessTempDirectory.folders(in: temp).count == 1, "only the live process's own folder")
        }
    }

    @Test func removingAbandonedFoldersSparesLiveOnes() throws {
        let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("feeds-tmp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var live: ProcessTempDirectory? = try ProcessTempDirectory(root: root)
        try Data("in flight".utf8).write(to: try #require(live).url.appendingPathComponent("upload-1"))
        // A folder whose process died: its lock file is there, and nobody holds it.
        let dead = root.appendingPathComponent("p-dead")
        try FileManager.default.createDirectory(at: dead, withIntermediateDirectories: true)
        try Data().write(to: dead.appendingPathComponent(".lock"))
        try Data("cut short".utf8).write(to: dead.appendingPathComponent("upload-2"))

        #expect(ProcessTempDirectory.removeAbandoned(in: root) == 1)
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        let liveURL = try #require(live).url
        #expect(FileManager.default.fileExists(atPath: liveURL.appendingPathComponent("upload-1").path))
        // A second look changes nothing; the live folder goes with its owner.
        #expect(ProcessTempDirectory.removeAbandoned(in: root) == 0)
        live = nil
        #expect(!FileManager.default.fileExists(atPath: liveURL.path))
    }

    /// Upload temp files (not lock files) under `root`, at any depth, with their sizes.
    static func tempFiles(in root: URL) -> [(path: String, size: Int)] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        else { return [] }
        return walker.compactMap { item in
            guard let url = item as? URL, url.lastPathComponent != ".lock",
                let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true
            else { return nil }
            return (url.path, values.fileSize ?? 0)
        }
    }

    /// POST /uploads/file declaring a 4 MB file, sending 1 MB of it, then waiting on `until`.
    static func stalledUpload(to baseURL: String, token: String, until: AsyncStream<Void>) async throws {
        let boundary = "crash-test-boundary"
        let head = Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                .utf8)
        let size = 4 << 20
        var request = HTTPClientRequest(url: "\(baseURL)/api/v2/uploads/file?api_key=\(TestServer.apiKey)")
        request.method = .POST
        request.headers.add(name: "Authorization", value: token)
        request.headers.add(name: "Stream-Auth-Type", value: "jwt")
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        let body = AsyncStream<ByteBuffer> { continuation in
            continuation.yield(ByteBuffer(bytes: head))
            continuation.yield(ByteBuffer(repeating: 0x41, count: 1 << 20))
            Task {
                for await _ in until {}
                continuation.finish()
            }
        }
        request.body = .stream(body, length: .known(Int64(head.count + size + 64)))
        _ = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
    }
}
