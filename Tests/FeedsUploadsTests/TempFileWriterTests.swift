import Crypto
import FeedsCore
import Foundation
import NIOCore
import Testing

@testable import FeedsUploads

/// The temp file and its SHA-256, hashed on another thread while chunks keep coming, with the
/// writeback started along the way.
@Suite struct TempFileWriterTests {
    let directory: URL = {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("feeds-temp-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func chunks(total: Int) -> (all: [UInt8], chunks: [ArraySlice<UInt8>]) {
        var generator = SystemRandomNumberGenerator()
        // From the kernel in one read: drawing 20 MB a byte at a time starved the suite's timed tests.
        let all = [UInt8](FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: total))
        var chunks: [ArraySlice<UInt8>] = []
        var at = 0
        while at < total {
            // From one byte to chunks that fill the hasher's backlog in a few steps.
            let size = min(total - at, [1, 7, 4096, 65_536, 1_000_000].randomElement(using: &generator)!)
            chunks.append(all[at..<(at + size)])
            at += size
        }
        return (all, chunks)
    }

    static func body(_ chunks: [ArraySlice<UInt8>]) -> AsyncStream<ByteBuffer> {
        AsyncStream { continuation in
            for chunk in chunks { continuation.yield(ByteBuffer(bytes: chunk)) }
            continuation.finish()
        }
    }

    /// 20 MB crosses the writeback step (8 MB) twice.
    @Test(arguments: [0, 1, 1_000, 20_000_000])
    func theFileAndItsHashAreExactlyTheBytesSent(total: Int) async throws {
        let (all, chunks) = Self.chunks(total: total)
        let written = try await TempFileWriter.write(
            Self.body(chunks), to: directory, limit: SizeLimit(.open, named: "test", storageLimit: 1 << 30))
        defer { try? FileManager.default.removeItem(at: written.url) }
        #expect(written.size == Int64(total))
        #expect(written.sha256 == SHA256.hash(data: all).map { String(format: "%02x", $0) }.joined())
        #expect(try Data(contentsOf: written.url) == Data(all))
    }

    @Test func overTheLimitNothingIsLeftBehind() async throws {
        let (_, chunks) = Self.chunks(total: 500_000)
        await #expect(throws: FeedsError.self) {
            _ = try await TempFileWriter.write(
                Self.body(chunks), to: directory, limit: SizeLimit(.open, named: "test", storageLimit: 100_000))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
