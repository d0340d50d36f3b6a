import Foundation
import Testing

@testable import FeedsHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Receive buffers freed after an upload's chunks are hashed are reused without page faults.
@Suite struct ReceiveBufferReuseTests {
    /// This thread's minor page faults (the tenth field of its stat; the name before may hold spaces).
    static func minorFaults() throws -> Int {
        let stat = try String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        return try #require(Int(fields[7]))
    }

    /// Sixteen 256 KB buffers, the hasher's backlog, written through and freed, ten times over.
    static func churn() throws -> Int {
        let before = try minorFaults()
        for _ in 0..<10 {
            let buffers = (0..<16).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16) }
            for buffer in buffers { buffer.initializeMemory(as: UInt8.self, repeating: 1) }
            for buffer in buffers { buffer.deallocate() }
        }
        return try minorFaults() - before
    }

    @Test func freedBuffersAreReusedWithoutFaultingTheirPagesInAgain() throws {
        ReceiveBufferReuse.apply()
        _ = try Self.churn()  // the heap grows once
        // Each of a churn's ten rounds would fault in 16 × 64 pages again if the memory went back
        // to the kernel. Tests running beside this one share its malloc arena and may take some of
        // the freed memory for a while, so the quietest of five churns is the one judged.
        let quietest = try (0..<5).map { _ in try Self.churn() }.min()!
        #expect(quietest < 16 * 64)
    }
}
