import Foundation
import Synchronization
import Testing

@testable import FeedsCore

@Suite struct RateLimiterTests {
    final class Clock: Sendable {
        let time = Mutex(Date(timeIntervalSince1970: 600))
        var now: Date { time.withLock { $0 } }
    }

    func limiter(_ clock: Clock, user: Int = 2, address: Int = 3) -> RateLimiter {
        var limits = RateLimits.off
        limits.read = .init(perUser: user, perServer: 0, perAddress: address)
        return RateLimiter(limits: limits, now: { clock.now })
    }

    @Test func theTightestBudgetAnswersAndARefusalCountsAgainstNone() {
        let clock = Clock()
        let limiter = limiter(clock)
        let callers: [RateLimiter.Caller] = [.user("a"), .address("1.2.3.4")]
        #expect(limiter.take(.read, by: callers) == .init(limit: 2, remaining: 1, reset: 660, exceeded: false))
        #expect(limiter.take(.read, by: callers) == .init(limit: 2, remaining: 0, reset: 660, exceeded: false))
        #expect(limiter.take(.read, by: callers)?.exceeded == true)
        // The refused request took nothing of the address's budget: one is left for another user.
        #expect(limiter.take(.read, by: [.user("b"), .address("1.2.3.4")]) == .init(limit: 3, remaining: 0, reset: 660, exceeded: false))
        #expect(limiter.take(.read, by: [.user("c"), .address("1.2.3.4")])?.exceeded == true)
        #expect(limiter.take(.write, by: callers) == nil)
    }

    @Test func aNewWindowStartsAfresh() {
        let clock = Clock()
        let limiter = limiter(clock, user: 1)
        #expect(limiter.take(.read, by: [.user("a")])?.exceeded == false)
        #expect(limiter.take(.read, by: [.user("a")])?.exceeded == true)
        #expect(limiter.peek(.read, by: .user("a")) == .init(limit: 1, remaining: 0, reset: 660, exceeded: true))
        clock.time.withLock { $0 += 60 }
        #expect(limiter.peek(.read, by: .user("a")) == .init(limit: 1, remaining: 1, reset: 720, exceeded: false))
        #expect(limiter.take(.read, by: [.user("a")])?.exceeded == false)
    }
}
