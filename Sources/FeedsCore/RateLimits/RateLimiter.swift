import Foundation
import Synchronization

/// Counts requests in fixed windows (whole minutes since 1970, as Stream's `X-RateLimit-Reset`
/// names them) and says whether one more may go. Counters live in memory for the current window
/// only, so their number is bounded by the callers of one window.
public final class RateLimiter: Sendable {
    /// Who a budget belongs to.
    public enum Caller: Sendable, Hashable {
        case user(String)
        case server
        case address(String)
    }

    /// One budget's state after a request was counted against it.
    public struct Quota: Sendable, Hashable {
        public var limit: Int
        public var remaining: Int
        /// When the window ends, in seconds since 1970.
        public var reset: Int
        /// Whether this request was over the limit (and so not allowed).
        public var exceeded: Bool
    }

    private struct Key: Hashable {
        let kind: RateLimitClass
        let caller: Caller
    }

    private struct Counters {
        var window = 0
        var counts: [Key: Int] = [:]
    }

    public let limits: RateLimits
    private let now: @Sendable () -> Date
    private let counters = Mutex(Counters())

    public init(limits: RateLimits, now: @escaping @Sendable () -> Date = { Date() }) {
        self.limits = limits
        self.now = now
    }

    /// Counts one request of `kind` against each of `callers` that has a limit, and returns the
    /// tightest quota (the one exceeded, else the fewest remaining); nil when none is limited.
    /// A request over any limit counts against none, so a refused flood does not lengthen itself.
    public func take(_ kind: RateLimitClass, by callers: [Caller]) -> Quota? {
        let window = windowIndex()
        let limited = callers.compactMap { caller in limit(kind, caller).map { (caller, $0) } }
        guard !limited.isEmpty else { return nil }
        let reset = (window + 1) * limits.windowSeconds
        return counters.withLock { counters in
            if counters.window != window { counters = Counters(window: window) }
            let used = limited.map { counters.counts[Key(kind: kind, caller: $0.0), default: 0] }
            if let over = zip(limited, used).first(where: { $1 >= $0.1 }) {
                return Quota(limit: over.0.1, remaining: 0, reset: reset, exceeded: true)
            }
            var tightest: Quota?
            for ((caller, limit), count) in zip(limited, used) {
                counters.counts[Key(kind: kind, caller: caller)] = count + 1
                let quota = Quota(limit: limit, remaining: limit - count - 1, reset: reset, exceeded: false)
                if tightest.map({ quota.remaining < $0.remaining }) ?? true { tightest = quota }
            }
            return tightest
        }
    }

    /// The quota of `caller` for `kind` now, without counting (GetRateLimits).
    public func peek(_ kind: RateLimitClass, by caller: Caller) -> Quota? {
        guard let limit = limit(kind, caller) else { return nil }
        let window = windowIndex()
        let used = counters.withLock { $0.window == window ? $0.counts[Key(kind: kind, caller: caller), default: 0] : 0 }
        return Quota(
            limit: limit, remaining: max(0, limit - used), reset: (window + 1) * limits.windowSeconds, exceeded: used >= limit)
    }

    private func limit(_ kind: RateLimitClass, _ caller: Caller) -> Int? {
        let limit =
            switch caller {
            case .user: limits[kind].perUser
            case .server: limits[kind].perServer
            case .address: limits[kind].perAddress
            }
        return limit > 0 ? limit : nil
    }

    private func windowIndex() -> Int {
        Int(now().timeIntervalSince1970) / max(1, limits.windowSeconds)
    }
}
