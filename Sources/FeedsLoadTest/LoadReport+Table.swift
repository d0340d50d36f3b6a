import Foundation

extension LoadReport {
    /// The human-readable summary printed at the end of a run.
    public var table: String {
        var rows: [(String, String)] = [
            ("scenario", "\(scenario.rawValue), \(concurrency) connections, \(users) users"),
            (
                "duration",
                String(format: "%.1f s measured", durationSeconds)
                    + (warmupSeconds > 0 ? String(format: " after %.1f s warm-up", warmupSeconds) : "")
            ),
            ("requests", "\(requests)"),
            ("ok", "\(ok)"),
            (
                "errors",
                errors == 0
                    ? "0"
                    : "\(errors) ("
                        + errorsByStatus.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
            ),
        ]
        if operations.count > 1 {
            rows.append(("mix", operations.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
        }
        rows.append(("throughput", String(format: "%.1f req/s", throughputRPS)))
        if let uploadMBPerSecond, let fileSize {
            rows.append(("uploads", String(format: "%.1f MB/s (files of %d bytes)", uploadMBPerSecond, fileSize)))
        }
        let l = latencyMS
        rows.append(
            (
                "latency ms",
                String(format: "p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  max %.2f", l.p50, l.p90, l.p99, l.p99_9, l.max)
            ))
        rows.append(("read back", "\(checked) acknowledged writes, \(lost) lost"))
        if let timelineChecked { rows.append(("timelines", "\(timelineChecked) post and follower pairs looked for")) }
        for example in lostExamples { rows.append(("  lost", example)) }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n")
    }
}
