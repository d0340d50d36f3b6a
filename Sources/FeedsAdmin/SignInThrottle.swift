import FeedsCore
import Foundation
import Synchronization

/// Slows down sign-in attempts per client address, so that guessing the secret online is slow
/// while the real admin is never locked out: no address is ever barred, each attempt from an
/// address that has not signed in yet waits longer than the last (0, 0.5, 1, 2, 4, then 8 s each,
/// taken in turn, so parallel guesses gain nothing), a success clears it, and 15 minutes without an
/// attempt forget it. An attacker slows only attempts from their own address; past 30 s of queue
/// an attempt is answered at once with when to come back. Per node, in memory: a restart or
/// another node starts afresh, which costs an attacker more than it gains them.
package final class SignInThrottle: Sendable {
    /// Whether an attempt may be checked, and after how long.
    package enum Admission: Equatable {
        case proceed(after: Duration)
        case refused(retryAfterSeconds: Int)
    }

    private struct Entry {
        /// Attempts since the last success, the one in flight included.
        package var attempts: Int
        package var lastAttempt: Date
        /// When the next attempt's turn starts.
        package var nextTurn: Date
    }

    package let clock: any AdminClock
    package let base: TimeInterval = 0.5
    package let cap: TimeInterval = 8
    package let forgetAfter: TimeInterval = 15 * 60
    package let longestQueue: TimeInterval = 30
    /// Addresses remembered at most; past it, the longest quiet go first.
    package let maximumSources = 10_000
    private let entries = Mutex<[String: Entry]>([:])

    package init(clock: any AdminClock) {
        self.clock = clock
    }

    /// The wait after `attempts` attempts without a success.
    package func delay(after attempts: Int) -> TimeInterval {
        attempts == 0 ? 0 : min(cap, base * pow(2, Double(min(attempts, 16) - 1)))
    }

    /// Takes an attempt from `source` in turn: how long it waits before its check, or that the
    /// queue is too long.
    package func admit(_ source: String) -> Admission {
        let now = clock.now
        return entries.withLock { entries in
            var entry =
                entries[source].flatMap { now.timeIntervalSince($0.lastAttempt) < forgetAfter ? $0 : nil }
                ?? Entry(attempts: 0, lastAttempt: now, nextTurn: now)
            let turn = max(now, entry.nextTurn)
            let wait = turn.timeIntervalSince(now) + delay(after: entry.attempts)
            guard wait <= longestQueue else {
                return .refused(retryAfterSeconds: Int(turn.timeIntervalSince(now).rounded(.up)))
            }
            entry.attempts += 1
            entry.lastAttempt = now
            entry.nextTurn = now.addingTimeInterval(wait)
            entries[source] = entry
            if entries.count > maximumSources { Self.forgetQuietest(&entries) }
            return .proceed(after: .milliseconds(Int((wait * 1000).rounded())))
        }
    }

    /// A success clears the address; a failure stays counted.
    package func succeeded(_ source: String) {
        _ = entries.withLock { $0.removeValue(forKey: source) }
    }

    private static func forgetQuietest(_ entries: inout [String: Entry]) {
        let quietest = entries.sorted { $0.value.lastAttempt < $1.value.lastAttempt }.prefix(entries.count / 10 + 1)
        for (source, _) in quietest { entries[source] = nil }
    }
}
