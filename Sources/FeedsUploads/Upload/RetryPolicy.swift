import FeedsCore
import Foundation

/// How the uploader retries transient CDN errors: exponential backoff with full jitter.
public struct RetryPolicy: Sendable, Hashable {
    /// Tries in all, the first included; 1 never retries.
    public var attempts: Int
    /// The longest wait before the first retry; it doubles with each retry after that.
    public var baseDelay: Duration
    /// The longest any wait may be.
    public var maxDelay: Duration

    /// A policy of `attempts` tries in all, waiting up to `baseDelay`, doubling, never above `maxDelay`.
    public init(attempts: Int = 3, baseDelay: Duration = .milliseconds(100), maxDelay: Duration = .seconds(2)) {
        precondition(attempts >= 1, "a retry policy makes at least one attempt")
        precondition(baseDelay >= .zero && maxDelay >= .zero, "retry delays are not negative")
        self.attempts = attempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// Three tries in all, the retries after waits of up to 100 ms and 200 ms.
    public static let `default` = RetryPolicy()

    /// The wait after try number `attempt` (from 1) failed: uniformly random between zero and
    /// `min(maxDelay, baseDelay × 2^(attempt − 1))`.
    public func delay(afterAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        // Full jitter rather than a fixed schedule, so that batches failing together do not retry together.
        let doublings = min(max(attempt - 1, 0), 30)
        let ceiling = min(maxDelay, baseDelay * (1 << doublings))
        let (seconds, attoseconds) = ceiling.components
        let ceilingSeconds = Double(seconds) + Double(attoseconds) * 1e-18
        return .seconds(Double.random(in: 0...ceilingSeconds, using: &generator))
    }

    /// The wait after try number `attempt` (from 1) failed, drawn from the system's generator.
    public func delay(afterAttempt attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(afterAttempt: attempt, using: &generator)
    }

    /// Whether trying again may help: transient `CDNError`s and network timeouts; never cancellation.
    public func isRetryable(_ error: any Error) -> Bool {
        switch error {
        case let error as CDNError:
            error.isTransient
        case let error as URLError:
            Self.transientURLErrors.contains(error.code)
        default:
            false
        }
    }

    private static let transientURLErrors: Set<URLError.Code> = [
        .timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
        .notConnectedToInternet,
    ]
}
