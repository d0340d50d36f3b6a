import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The live progress of the measured phase on standard error: one line rewritten in place on a
/// terminal, one line a second otherwise (logs and CI keep a readable history).
struct ProgressLine: Sendable {
    let recorder: LatencyRecorder
    let start: ContinuousClock.Instant
    let terminal: Bool
    let output: @Sendable (String) -> Void
    /// How often it prints: four times a second on a terminal, else once a second.
    let interval: Duration

    init(
        recorder: LatencyRecorder, start: ContinuousClock.Instant, terminal: Bool = isatty(STDERR_FILENO) == 1,
        interval: Duration? = nil,
        output: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.recorder = recorder
        self.start = start
        self.terminal = terminal
        self.interval = interval ?? (terminal ? .milliseconds(250) : .seconds(1))
        self.output = output
    }

    /// Prints until cancelled, then ends the line on a terminal.
    func run() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            if Task.isCancelled { break }
            output(terminal ? "\r\u{1B}[K" + line() : line() + "\n")
        }
        if terminal { output("\r\u{1B}[K" + line() + "\n") }
    }

    /// `elapsed 3.0s  requests 1200  400.0 req/s  errors 0  p99 12.30 ms`
    func line() -> String {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let (requests, errors, p99) = recorder.progress
        let rate = seconds > 0 ? Double(requests) / seconds : 0
        return String(
            format: "elapsed %.1fs  requests %d  %.1f req/s  errors %d  p99 %.2f ms", seconds, requests, rate, errors, p99)
    }
}
