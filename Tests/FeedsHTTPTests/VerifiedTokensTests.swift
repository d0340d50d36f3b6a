import FeedsCore
import Foundation
import Testing

@testable import FeedsHTTP

@Suite struct VerifiedTokensTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func onlyARememberedTokenWithinItsTimesHits() {
        let tokens = VerifiedTokens()
        #expect(tokens.principal(for: "a", now: now) == nil)
        tokens.remember("a", as: .init(principal: .user("alice"), notBefore: now - 10, expires: now + 10))
        tokens.remember("s", as: .init(principal: .server, notBefore: nil, expires: nil))
        #expect(tokens.principal(for: "a", now: now) == .user("alice"))
        #expect(tokens.principal(for: "a", now: now + 10) == .user("alice"))
        #expect(tokens.principal(for: "a", now: now + 10.001) == nil)
        #expect(tokens.principal(for: "a", now: now - 10.001) == nil)
        #expect(tokens.principal(for: "s", now: .distantFuture) == .server)
        #expect(tokens.principal(for: "a ", now: now) == nil)
    }

    @Test func itNeverHoldsMoreThanItsCapacity() {
        let tokens = VerifiedTokens(capacity: 100)
        for index in 0..<1000 {
            tokens.remember("t\(index)", as: .init(principal: .user("u\(index)"), notBefore: nil, expires: nil))
            #expect(tokens.count <= 100)
        }
        #expect(tokens.principal(for: "t999", now: now) == .user("u999"))
    }
}
