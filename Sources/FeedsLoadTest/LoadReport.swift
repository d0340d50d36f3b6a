import Foundation
import Histogram

/// The result of a run, as printed and as written by `--json`.
public struct LoadReport: Sendable, Codable, Equatable {
    /// Latency percentiles of the measured requests, in milliseconds.
    public struct Latency: Sendable, Codable, Equatable {
        public var p50: Double
        public var p90: Double
        public var p99: Double
        public var p99_9: Double
        public var max: Double
        public var mean: Double
    }

    public var scenario: Scenario
    public var concurrency: Int
    public var users: Int
    /// Seconds the measured phase lasted.
    public var durationSeconds: Double
    public var warmupSeconds: Double
    public var requests: Int
    public var ok: Int
    public var errors: Int
    /// Failed requests by HTTP status, or `transport` when no response came.
    public var errorsByStatus: [String: Int]
    /// Requests by operation (one for a single scenario, each for `mixed`).
    public var operations: [String: Int]
    public var throughputRPS: Double
    /// Uploaded megabytes (10^6) per second of acknowledged uploads; nil without uploads.
    public var uploadMBPerSecond: Double?
    public var fileSize: Int?
    public var latencyMS: Latency
    /// Writes acknowledged (measured, warm-up and seeding) and read back.
    public var checked: Int
    /// Acknowledged writes missing or different when read back (or that could not be read).
    public var lost: Int
    public var lostExamples: [String]
    /// A timeline run's post and follower pairs looked for in the followers' timelines (those
    /// missing count in `lost`); nil for other scenarios.
    public var timelineChecked: Int?

    enum CodingKeys: String, CodingKey {
        case scenario, concurrency, users, requests, ok, errors, operations, checked, lost
        case durationSeconds = "duration_s"
        case warmupSeconds = "warmup_s"
        case errorsByStatus = "errors_by_status"
        case throughputRPS = "throughput_rps"
        case uploadMBPerSecond = "upload_mb_per_s"
        case fileSize = "file_size"
        case latencyMS = "latency_ms"
        case lostExamples = "lost_examples"
        case timelineChecked = "timeline_checked"
    }

    /// Whether the run should fail the command: any error or any loss.
    public var failed: Bool { errors > 0 || lost > 0 }

    init(options: LoadTestOptions, measured: LatencyRecorder.Snapshot, elapsed: Duration, loss: LossCheck.Result, timelines: TimelineCheck.Result? = nil) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let histogram = measured.histogram
        let uploads = options.scenario == .uploadFile || options.scenario == .activityWithUploads || options.scenario == .mixed
        scenario = options.scenario
        concurrency = options.concurrency
        users = options.users
        durationSeconds = seconds
        warmupSeconds = options.warmup
        requests = measured.requests
        ok = measured.ok
        errors = measured.errors
        errorsByStatus = measured.errorsByStatus
        operations = Dictionary(uniqueKeysWithValues: measured.operations.map { ($0.key.rawValue, $0.value) })
        throughputRPS = seconds > 0 ? Double(measured.requests) / seconds : 0
        uploadMBPerSecond = uploads && seconds > 0 ? Double(measured.uploadedBytes) / 1e6 / seconds : nil
        fileSize = uploads ? options.fileSize : nil
        latencyMS = Latency(
            p50: histogram.millis(atPercentile: 50), p90: histogram.millis(atPercentile: 90),
            p99: histogram.millis(atPercentile: 99), p99_9: histogram.millis(atPercentile: 99.9),
            max: histogram.totalCount == 0 ? 0 : Double(histogram.max) / 1000,
            mean: histogram.totalCount == 0 ? 0 : histogram.mean / 1000
        )
        checked = loss.checked
        lost = loss.lost + (timelines?.missing ?? 0)
        lostExamples = loss.examples + (timelines?.examples ?? [])
        timelineChecked = timelines?.checked
    }

    /// The report as pretty JSON with sorted keys.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes the JSON report to `path`.
    public func write(to path: String) throws {
        try json().write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
