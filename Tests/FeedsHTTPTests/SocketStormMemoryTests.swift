import FeedsPostgres
import FeedsTestSupport
import Foundation
import NIOCore
import NIOPosix
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Memory comes back after a storm of sockets: 10,000 that open a WebSocket and never sign in,
/// then 2,000 that do (the `feeds loadtest` real-time run), all gone again. A minute later the
/// node's RSS was 43 MB above where it started; the heap trim (`HeapTrimService`, every second
/// here) brings it within 20 MB. The wait is a hang guard; RSS is what is checked.
@Suite struct SocketStormMemoryTests {
    @Test func residentMemoryReturnsAfterASocketStorm() async throws {
        Self.raiseDescriptorLimit()
        try await TestServer.run { server in
            let node = try await FeedsNode(
                databaseURL: server.databaseURL, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
                port: try freeLoopbackPort(),
                environment: ["FEEDS_HEAP_TRIM_INTERVAL": "1", "FEEDS_MAX_CONNECTIONS": "20000", "FEEDS_RATE_LIMITS": "off"])
            defer { node.stop() }
            let port = try #require(URL(string: node.baseURL)?.port)

            // A small storm first: what a node keeps once it has served sockets at all (its
            // database pool grown, code paths touched) is its baseline, not the storm's cost.
            try await Self.unauthenticated(500, port: port)
            try await Self.authenticated(100, node: node, port: port)
            // A few trims after it, the warm-up's own garbage is gone.
            try await Task.sleep(for: .seconds(3))
            let baseline = try #require(node.residentKilobytes)

            try await Self.unauthenticated(10_000, port: port)
            try await Self.authenticated(2_000, node: node, port: port)
            let peak = try #require(node.residentKilobytes)
            try await eventually("RSS back within 20 MB of \(baseline) kB (peak \(peak) kB)", seconds: 180, every: .seconds(1)) {
                (node.residentKilobytes ?? .max) <= baseline + 20 * 1024
            }
            #expect(await server.isHealthy())
        }
    }

    /// Opens `count` WebSocket upgrades that never authenticate, in waves of 500 held open at once
    /// (the node keeps 100 per address anyway), then closes them. Waves, so that the storm never
    /// holds thousands of this machine's ephemeral ports that other tests' servers bind.
    static func unauthenticated(_ count: Int, port: Int) async throws {
        for wave in stride(from: 0, to: count, by: 500) {
            try await unauthenticatedWave(min(500, count - wave), port: port)
        }
    }

    private static func unauthenticatedWave(_ count: Int, port: Int) async throws {
        let request = ByteBuffer(
            string: "GET /api/v2/connect?api_key=\(TestServer.apiKey) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        var channels: [any Channel] = []
        for _ in 0..<count {
            // Refused or evicted at once is the node protecting itself; the storm goes on.
            guard let channel = try? await bootstrap.connect(host: "127.0.0.1", port: port).get() else { continue }
            channel.writeAndFlush(request, promise: nil)
            channels.append(channel)
        }
        for channel in channels { try? await channel.close() }
    }

    /// Holds `count` signed-in sockets watching a feed for a few seconds (`feeds loadtest`).
    static func authenticated(_ count: Int, node: FeedsNode, port: Int) async throws {
        let run = try await FeedsExecutable.run([
            "loadtest", "--scenario", "realtime", "--url", node.baseURL, "--ws-url", "ws://127.0.0.1:\(port)/api/v2/connect",
            "--api-key", TestServer.apiKey, "--api-secret", TestServer.apiSecret, "--watchers", String(count),
            "--rate", "0", "--duration", "3", "--user-prefix", "storm\(count)", "--no-progress",
        ])
        #expect(run.status == 0, "\(run.stdout.suffix(500)) \(run.stderr.suffix(500))")
    }

    /// 12,000 sockets need as many descriptors in this process as in the node.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
