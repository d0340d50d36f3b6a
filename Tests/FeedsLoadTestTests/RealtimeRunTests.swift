import FeedsLoadTest
import FeedsTestSupport
import Foundation
import Testing

/// `--scenario realtime` against the real server: every acknowledged post reaches every watcher
/// once, and idle sockets get the server's health checks.
@Suite struct RealtimeRunTests {
    func options(_ server: TestServer, watchers: Int, rate: Double, seconds: Double) -> RealtimeRun.Options {
        RealtimeRun.Options(
            url: server.baseURL, webSocketURL: server.webSocketURL, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
            watchers: watchers, rate: rate, seconds: seconds, userPrefix: "rt-\(UUID().uuidString.prefix(8))")
    }

    @Test func everyPostReachesEveryWatcherOnce() async throws {
        try await TestServer.run { server in
            var options = options(server, watchers: 8, rate: 20, seconds: 1)
            options.patience = 120  // a hang guard: a busy machine may be slow to deliver
            let report = try await RealtimeRun(options: options).run()
            #expect(report.posts == 20 && report.acknowledged == 20 && report.failedPosts == 0, "\(report)")
            #expect(report.expected == 160 && report.delivered == 160 && report.lost == 0 && report.duplicated == 0, "\(report)")
            #expect(report.latencyP50MS > 0 && report.latencyP50MS <= report.latencyP99MS)
            #expect(!report.failed)
        }
    }

    @Test func idleSocketsGetHealthChecks() async throws {
        try await TestServer.run(configure: { $0.healthCheckInterval = .milliseconds(200) }) { server in
            let report = try await RealtimeRun(options: options(server, watchers: 4, rate: 0, seconds: 2)).run()
            #expect(report.posts == 0 && report.lost == 0)
            #expect(report.healthChecksMin >= 1, "\(report)")
        }
    }
}
