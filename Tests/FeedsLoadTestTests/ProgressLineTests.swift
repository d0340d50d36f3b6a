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

    @Test func withoutATerminalItPrintsWholeLines() async throws {
        let printed = Shared<[String]>([])
        let progress = ProgressLine(
            recorder: LatencyRecorder(), start: .now, terminal: false, interval: .milliseconds(20),
            output: { text in printed.withLock { $0.append(text) } })
        let task = Task { await progress.run() }
        // However slow the machine, wait for three lines (five seconds at most).
        for _ in 0..<250 where printed.withLock({ $0.count }) < 3 { try await Task.sleep(for: .milliseconds(20)) }
        task.cancel()
        await task.value
        let lines = printed.withLock { $0 }
        #expect(lines.count >= 3)
        #expect(lines.allSatisfy { $0.hasSuffix("\n") && !$0.contains("\r") && $0.hasPrefix("elapsed ") })
    }

    @Test func onATerminalItRewritesOneLineAndEndsIt() async throws {
        let printed = Shared<[String]>([])
        let progress = ProgressLine(
            recorder: LatencyRecorder(), start: .now, terminal: true, interval: .milliseconds(20),
            output: { text in printed.withLock { $0.append(text) } })
        let task = Task { await progress.run() }
        for _ in 0..<250 where printed.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(20)) }
        task.cancel()
        await task.value
        let writes = printed.withLock { $0 }
        #expect(writes.count >= 3)
        #expect(writes.allSatisfy { $0.hasPrefix("\r\u{1B}[Kelapsed ") })
        #expect(writes.dropLast().allSatisfy { !$0.hasSuffix("\n") })
        #expect(writes.last?.hasSuffix("\n") == true)
    }
}
