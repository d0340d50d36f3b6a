import Foundation
import Testing

@testable import FeedsHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Receive buffers freed after an upload's chunks are hashed are reused without page faults.
@Suite struct ReceiveBufferReuseTests {
    /// Minor page faults of the calling process (in the forked child, its only thread).
    static func minorFaults() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_minflt
    }

    /// Sixteen 256 KB buffers, the hasher's backlog, written through and freed, ten times over.
    static func churn() -> Int {
        let before = minorFaults()
        for _ in 0..<10 {
            let buffers = (0..<16).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16) }
            for buffer in buffers { buffer.initializeMemory(as: UInt8.self, repeating: 1) }
            for buffer in buffers { buffer.deallocate() }
        }
        return minorFaults() - before
    }

    /// The quietest of five churns, measured in a forked child: the child has one thread, so no
    /// test running beside this one can take the freed memory from it (in this process they share
    /// malloc's arenas, and on a busy machine they did).
    static func quietestChurnAlone() throws -> Int {
        _ = churn()  // the heap grows once, and the code's metadata exists before the fork
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        let child = fork()
        try #require(child >= 0)
        if child == 0 {
            _ = churn()  // copies the pages still shared with the parent
            var quietest = (0..<5).map { _ in churn() }.min()!
            _ = write(pipeEnds[1], &quietest, MemoryLayout<Int>.size)
            _exit(0)
        }
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        // A hang guard, not a deadline: a child that never finishes fails this test, not the run.
        var status: Int32 = 0
        var polls = 0
        while waitpid(child, &status, WNOHANG) == 0, polls < 60_000 {
            usleep(10_000)
            polls += 1
        }
        if polls == 60_000 {
            kill(child, SIGKILL)
            waitpid(child, &status, 0)
            Issue.record("the child measuring page faults did not finish")
            return .max
        }
        var quietest = Int.max
        try #require(read(pipeEnds[0], &quietest, MemoryLayout<Int>.size) == MemoryLayout<Int>.size)
        return quietest
    }

    @Test func freedBuffersAreReusedWithoutFaultingTheirPagesInAgain() throws {
        ReceiveBufferReuse.apply()
        let quietest = try Self.quietestChurnAlone()
        // Each of a churn's ten rounds would fault in 16 × 64 pages again if the memory went back
        // to the kernel.
        #expect(quietest < 16 * 64)
    }
}
