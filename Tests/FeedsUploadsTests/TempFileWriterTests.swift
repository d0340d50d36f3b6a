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

    /// A JPEG with a comment, a scan of `scanBytes` and a second image after its end; and what stays of it.
    static func jpeg(scanBytes: Int) -> (sent: [UInt8], kept: [UInt8]) {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        // Scan data never holds 0xFF unstuffed.
        let scan = (0..<scanBytes).map { UInt8($0 % 251) }
        let head = [0xFF, 0xD8] + segment(0xDB, Array("tables".utf8))
        let tail = segment(0xDA, Array("scan".utf8)) + scan + [0xFF, 0xD9]
        return (head + segment(0xFE, Array("shot at home, 52.1N".utf8)) + tail + Array("second image".utf8), head + tail)
    }

    /// With stripping on, a JPEG is written without its metadata, and its size and hash are those
    /// of what is written, however its bytes arrive.
    @Test func aJPEGIsStrippedAsItIsWritten() async throws {
        let (sent, kept) = Self.jpeg(scanBytes: 3_000_000)
        var chunks: [ArraySlice<UInt8>] = []
        var (at, turn) = (0, 0)
        while at < sent.count {
            let size = [1, 2, 5, 64, 65_536, 1_000_000][turn % 6]
            chunks.append(sent[at..<min(sent.count, at + size)])
            (at, turn) = (min(sent.count, at + size), turn + 1)
        }
        let limit = SizeLimit(.open, named: "test", storageLimit: 1 << 30)
        let written = try await TempFileWriter.write(Self.body(chunks), to: directory, limit: limit, strippingJPEG: true)
        defer { try? FileManager.default.removeItem(at: written.url) }
        #expect(try Data(contentsOf: written.url) == Data(kept))
        #expect(written.size == Int64(kept.count))
        #expect(written.sha256 == SHA256.hash(data: kept).map { String(format: "%02x", $0) }.joined())
        guard case .stripped = written.metadata else {
            Issue.record("metadata: \(written.metadata)")
            return
        }

        // Stripping off, or not a JPEG: written as sent.
        let asSent = try await TempFileWriter.write(Self.body([sent[...]]), to: directory, limit: limit, strippingJPEG: false)
        #expect(try Data(contentsOf: asSent.url) == Data(sent))
        let text = Array("not a photo at all".utf8)
        let notJPEG = try await TempFileWriter.write(Self.body([text[...]]), to: directory, limit: limit, strippingJPEG: true)
        #expect(try Data(contentsOf: notJPEG.url) == Data(text))
        guard case .asSent = notJPEG.metadata, case .asSent = asSent.metadata else {
            Issue.record("\(notJPEG.metadata), \(asSent.metadata)")
            return
        }
    }

    /// A JPEG whose structure breaks partway is marked so, to be refused.
    @Test func aBrokenJPEGIsMarkedBroken() async throws {
        let broken: [UInt8] = [0xFF, 0xD8, 0xFF, 0xFE, 0x00, 0x04, 0x41, 0x41, 0x42, 0x42, 0x42]
        let written = try await TempFileWriter.write(
            Self.body([broken[...]]), to: directory, limit: SizeLimit(.open, named: "test", storageLimit: 1 << 20),
            strippingJPEG: true)
        defer { try? FileManager.default.removeItem(at: written.url) }
        guard case .broken(let error) = written.metadata else {
            Issue.record("metadata: \(written.metadata)")
            return
        }
        #expect(error.kind == .input && error.message.contains("a segment does not start with a marker"))
    }
}
