import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsHTTP
@testable import FeedsServer

/// Rate limits as Stream has them: per user (or server) and per client address, per class of
/// operation, in one-minute windows; `X-RateLimit-*` on every answer, 429 with code 9 past a
/// limit, GetRateLimits; a forwarded address believed only from a trusted proxy.
@Suite struct RateLimitTests {
    static func limited(read: RateLimits.Limit, clock: ManualAdminClock) -> @Sendable (inout FeedsConfiguration) -> Void {
        { configuration in
            var limits = RateLimits.off
            limits.read = read
            limits.write = .init(perUser: 2, perServer: 0, perAddress: 0)
            configuration.rateLimits = limits
            configuration.rateLimitClock = { clock.now }
        }
    }

    @Test func aUserPastTheirLimitGets429UntilTheWindowEnds() async throws {
        let clock = ManualAdminClock(Date(timeIntervalSince1970: 1_800_000_000))
        try await TestServer.run(configure: Self.limited(read: .init(perUser: 3, perServer: 0, perAddress: 0), clock: clock)) {
            server in
            let reset = "\(1_800_000_000 / 60 * 60 + 60)"
            for remaining in [2, 1, 0] {
                let reply = try await server.api(.GET, "/app", as: "alice")
                #expect(reply.status == 200, "\(reply.text)")
                #expect(
                    reply.headers.first(name: "X-RateLimit-Limit") == "3"
                        && reply.headers.first(name: "X-RateLimit-Remaining") == "\(remaining)")
                #expect(reply.headers.first(name: "X-RateLimit-Reset") == reset)
            }
            let refused = try await server.api(.GET, "/app", as: "alice")
            expectAPIError(refused, status: 429, code: 9)
            #expect(
                refused.headers.first(name: "X-RateLimit-Remaining") == "0" && refused.headers.first(name: "Retry-After") != nil)
            // Another user, and another class, have budgets of their own.
            #expect(try await server.api(.GET, "/app", as: "bob").status == 200)
            #expect(
                try await server.api(.POST, "/feeds/activities", as: "alice", json: #"{"type":"post","feeds":["user:alice"]}"#)
                    .status == 201)
            #expect(
                try await server.api(.POST, "/feeds/activities", as: "alice", json: #"{"type":"post","feeds":["user:alice"]}"#)
                    .status == 201)
            expectAPIError(
                try await server.api(.POST, "/feeds/activities", as: "alice", json: #"{"type":"post","feeds":["user:alice"]}"#),
                status: 429, code: 9)
            #expect(try await server.number("SELECT count(*)::int FROM activities") == 2)
            // Hand-written routes count too.
            for _ in 0..<2 { _ = try await server.api(.POST, "/feeds/activities/query", as: "carol", json: "{}") }
            #expect(try await server.api(.POST, "/feeds/feed_groups/user/feeds/carol", as: "carol", json: "{}").status == 201)
            expectAPIError(try await server.api(.POST, "/feeds/activities/query", as: "carol", json: "{}"), status: 429, code: 9)

            clock.advance(by: 60)
            #expect(try await server.api(.GET, "/app", as: "alice").status == 200)
        }
    }

    @Test func anAddressIsLimitedWhateverUserItClaimsAndForwardingIsBelievedOnlyFromTrustedProxies() async throws {
        let clock = ManualAdminClock()
        try await TestServer.run(configure: Self.limited(read: .init(perUser: 0, perServer: 0, perAddress: 2), clock: clock)) {
            server in
            #expect(try await server.api(.GET, "/app", as: "u1").status == 200)
            #expect(try await server.api(.GET, "/app", as: "u2", headers: [("X-Forwarded-For", "203.0.113.9")]).status == 200)
            expectAPIError(
                try await server.api(.GET, "/app", as: "u3", headers: [("X-Forwarded-For", "198.51.100.1")]), status: 429, code: 9
            )
        }
        try await TestServer.run(configure: {
            Self.limited(read: .init(perUser: 0, perServer: 0, perAddress: 2), clock: clock)(&$0)
            $0.trustedProxies = ["127.0.0.0/8"]
        }) { server in
            for _ in 0..<2 {
                #expect(try await server.api(.GET, "/app", as: "u1", headers: [("X-Forwarded-For", "203.0.113.9")]).status == 200)
            }
            expectAPIError(
                try await server.api(.GET, "/app", as: "u1", headers: [("X-Forwarded-For", "203.0.113.9")]), status: 429, code: 9)
            // The proxy appends the address it saw: a client's own prefix changes nothing.
            expectAPIError(
                try await server.api(.GET, "/app", as: "u1", headers: [("X-Forwarded-For", "10.9.9.9, 203.0.113.9")]),
                status: 429,
                code: 9)
            #expect(try await server.api(.GET, "/app", as: "u1", headers: [("X-Forwarded-For", "203.0.113.10")]).status == 200)
        }
    }

    @Test func getRateLimitsReportsTheCallersBudgets() async throws {
        let clock = ManualAdminClock()
        try await TestServer.run(configure: Self.limited(read: .init(perUser: 10, perServer: 50, perAddress: 0), clock: clock)) {
            server in
            _ = try await server.api(.GET, "/app", as: "alice")
            let mine = try await server.api(
                .GET, "/rate_limits", as: "alice", query: "&web=true&endpoints=GetApp,AddActivity,Nope")
            #expect(mine.status == 200, "\(mine.text)")
            // The call itself is a read: two of ten used.
            #expect(
                mine.body["web"]["GetApp"]["limit"].int == 10 && mine.body["web"]["GetApp"]["remaining"].int == 8, "\(mine.text)")
            #expect(mine.body["web"]["AddActivity"]["limit"].int == 2 && mine.body["web"]["GetApp"]["reset"].int != nil)
            #expect(mine.body["web"].object?.count == 2 && mine.body["server_side"].isNull && mine.body["ios"].isNull)
            let all = try await server.api(.GET, "/rate_limits", as: nil)
            #expect(all.body["server_side"]["GetOrCreateFeed"]["limit"].int == 50, "\(all.text)")
            #expect(all.body["android"]["QueryActivities"]["limit"].int == 10 && all.body["ios"].object != nil)
        }
    }
}
