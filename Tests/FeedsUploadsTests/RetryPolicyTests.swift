import FeedsCore
import Foundation
import Testing

@testable import FeedsUploads

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(attempts: 5, baseDelay: .milliseconds(100), maxDelay: .milliseconds(300))

    @Test func defaultMakesThreeTries() {
        #expect(RetryPolicy.default.attempts == 3)
    }

    @Test(arguments: [(1, 100), (2, 200), (3, 300), (4, 300), (40, 300)])
    func delaysStayUnderTheDoublingCeiling(attempt: Int, ceilingMilliseconds: Int) {
        let delays = (0..<200).map { _ in policy.delay(afterAttempt: attempt) }
        #expect(delays.allSatisfy { $0 >= .zero && $0 <= .milliseconds(ceilingMilliseconds) })
        // Full jitter spreads the waits over the whole range, not just near the ceiling.
        #expect(delays.contains { $0 < .milliseconds(ceilingMilliseconds) / 2 })
        #expect(delays.contains { $0 > .milliseconds(ceilingMilliseconds) / 2 })
    }

    @Test func theGeneratorDecidesTheJitter() {
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        let delays = (1...4).map { policy.delay(afterAttempt: $0, using: &first) }
        #expect(delays == (1...4).map { policy.delay(afterAttempt: $0, using: &second) })
        #expect(delays.contains { $0 > .zero })
    }

    @Test func retriesOnlyWhatMayPass() {
        #expect(policy.isRetryable(CDNError(transient: true, "503")))
        #expect(policy.isRetryable(URLError(.timedOut)))
        #expect(policy.isRetryable(URLError(.networkConnectionLost)))
        #expect(!policy.isRetryable(CDNError(transient: false, "403")))
        #expect(!policy.isRetryable(URLError(.badURL)))
        #expect(!policy.isRetryable(CancellationError()))
        #expect(!policy.isRetryable(FeedsError.input("bad")))
    }
}

/// A small seeded generator (SplitMix64). Constant generators will not do: the standard library
/// rejects and redraws some values, so one that repeats a rejected value loops forever.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
