import Histogram
import Synchronization

/// Outcomes of the measured requests: latencies in an HdrHistogram (microseconds, three significant
/// digits, up to ten minutes), counts by status and operation, and bytes uploaded. Shared by the
/// workers; each record takes a lock for a few hundred nanoseconds.
public final class LatencyRecorder: Sendable {
    /// How a request ended: an HTTP status, or no response at all.
    public enum Outcome: Sendable, Hashable {
        case status(Int)
        /// A 2xx whose body does not name the write: it cannot be checked, so it is an error.
        case badReply(Int)
        case transportError

        var isOK: Bool {
            if case .status(let code) = self { return (200..<300).contains(code) }
            return false
        }

        /// The key in the report's `errors_by_status`.
        var label: String {
            switch self {
            case .status(let code): String(code)
            case .badReply(let code): "\(code) unreadable"
            case .transportError: "transport"
            }
        }
    }

    /// What the recorder holds at one moment.
    public struct Snapshot: Sendable {
        public var histogram: Histogram<UInt64>
        public var requests: Int
        public var ok: Int
        public var errorsByStatus: [String: Int]
        public var operations: [Operation: Int]
        public var uploadedBytes: Int64

        public var errors: Int { requests - ok }
    }

    private let state: Mutex<Snapshot>

    public init() {
        let histogram = Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
        state = Mutex(
            Snapshot(histogram: histogram, requests: 0, ok: 0, errorsByStatus: [:], operations: [:], uploadedBytes: 0))
    }

    /// Records one finished request.
    public func record(_ operation: Operation, outcome: Outcome, latency: Duration, uploadedBytes: Int64 = 0) {
        let micros = max(
            1, UInt64(clamping: latency.components.seconds * 1_000_000 + latency.components.attoseconds / 1_000_000_000_000))
        state.withLock { state in
            _ = state.histogram.record(micros)
            state.requests += 1
            state.operations[operation, default: 0] += 1
            if outcome.isOK {
                state.ok += 1
                state.uploadedBytes += uploadedBytes
            } else {
                state.errorsByStatus[outcome.label, default: 0] += 1
            }
        }
    }

    public var snapshot: Snapshot { state.withLock { $0 } }

    /// The figures of the live progress line, without copying the histogram.
    var progress: (requests: Int, errors: Int, p99: Double) {
        state.withLock { ($0.requests, $0.errors, $0.histogram.millis(atPercentile: 99)) }
    }
}

extension Histogram<UInt64> {
    /// A percentile in milliseconds.
    func millis(atPercentile percentile: Double) -> Double {
        totalCount == 0 ? 0 : Double(valueAtPercentile(percentile)) / 1000
    }
}
