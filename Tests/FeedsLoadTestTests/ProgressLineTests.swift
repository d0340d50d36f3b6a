import Testing

@testable import FeedsLoadTest

@Suite struct ProgressLineTests {
    @Test func theLineShowsRequestsErrorsAndP99SoFar() {
        let recorder = LatencyRecorder()
        for millis in 1...100 { recorder.record(.readFeed, outcome: .status(201), latency: .milliseconds(millis)) }
        recorder.record(.readFeed, outcome: .status(500), latency: .milliseconds(1))
        let line = ProgressLine(recorder: recorder, start: .now - .seconds(2), terminal: false, output: { _ in }).line()
        #expect(line.contains("requests 101"))
        #expect(line.contains("errors 1"))
        #expect(line.contains("p99 99."))
        #expect(line.contains("50.5 req/s") || line.contains("50.4 req/s"))
    }

    /// What a progress line printing every 20 ms writes, once it has written `count` times (five seconds at most).
    func writes(terminal: Bool, atLeast count: Int) async throws -> [String] {
        let printed = Shared<[String]>([])
        let progress = ProgressLine(
            recorder: LatencyRecorder(), start: .now, terminal: terminal, interval: .milliseconds(20),
            output: { text in printed.withLock { $0.append(text) } })
        let task = Task { await progress.run() }
        for _ in 0..<250 where printed.withLock({ $0.count }) < count { try await Task.sleep(for: .milliseconds(20)) }
        task.cancel()
        await task.value
        return printed.withLock { $0 }
    }

    @Test func withoutATerminalItPrintsWholeLines() async throws {
        let lines = try await writes(terminal: false, atLeast: 3)
        #expect(lines.count >= 3)
        #expect(lines.allSatisfy { $0.hasSuffix("\n") && !$0.contains("\r") && $0.hasPrefix("elapsed ") })
    }

    @Test func onATerminalItRewritesOneLineAndEndsIt() async throws {
        let writes = try await writes(terminal: true, atLeast: 2)
        #expect(writes.count >= 3)
        #expect(writes.allSatisfy { $0.hasPrefix("\r\u{1B}[Kelapsed ") })
        #expect(writes.dropLast().allSatisfy { !$0.hasSuffix("\n") })
        #expect(writes.last?.hasSuffix("\n") == true)
    }
}
