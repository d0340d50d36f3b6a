import AsyncHTTPClient
import Foundation
import Histogram
import Logging
import NIOCore

/// `feeds loadtest --scenario realtime`: `watchers` sockets each watch one author's feed, the
/// author posts `rate` activities a second, and every socket notes when each post reaches it.
/// The report gives write-to-delivery latency (from just before the POST to the event's arrival)
/// and counts, for every acknowledged post and watcher, what never arrived and what arrived
/// twice. With `rate` 0 the sockets only stay connected (for memory per connection), counting
/// the health checks they get.
public struct RealtimeRun: Sendable {
    public struct Options: Sendable {
        /// The server's base URL for posts and watches.
        public var url: String
        /// `ws://…/api/v2/connect`, of this node or another.
        public var webSocketURL: String
        public var apiKey: String
        public var apiSecret: String
        public var watchers: Int
        /// Posts per second; 0 holds the sockets for `seconds` without posting.
        public var rate: Double
        public var seconds: Double
        public var userPrefix: String
        /// Seconds the count waits for late events before they count as lost.
        public var patience: Double = 10

        public init(
            url: String, webSocketURL: String, apiKey: String, apiSecret: String, watchers: Int, rate: Double, seconds: Double,
            userPrefix: String = "realtime"
        ) {
            self.url = url.hasSuffix("/") ? String(url.dropLast()) : url
            self.webSocketURL = webSocketURL
            self.apiKey = apiKey
            self.apiSecret = apiSecret
            self.watchers = watchers
            self.rate = rate
            self.seconds = seconds
            self.userPrefix = userPrefix
        }
    }

    public struct Report: Sendable, Codable, Equatable {
        public var watchers: Int
        public var posts: Int
        public var acknowledged: Int
        /// Acknowledged posts times watchers.
        public var expected: Int
        public var delivered: Int
        public var lost: Int
        public var duplicated: Int
        public var failedPosts: Int
        public var latencyP50MS: Double
        public var latencyP99MS: Double
        public var latencyMaxMS: Double
        /// The fewest health checks a socket got.
        public var healthChecksMin: Int
        public var lostExamples: [String]

        enum CodingKeys: String, CodingKey {
            case watchers, posts, acknowledged, expected, delivered, lost, duplicated
            case failedPosts = "failed_posts"
            case latencyP50MS = "latency_p50_ms"
            case latencyP99MS = "latency_p99_ms"
            case latencyMaxMS = "latency_max_ms"
            case healthChecksMin = "health_checks_min"
            case lostExamples = "lost_examples"
        }

        public var failed: Bool { lost > 0 || duplicated > 0 || failedPosts > 0 }

        public var table: String {
            """
            realtime: \(watchers) watchers, \(posts) posts (\(acknowledged) acknowledged, \(failedPosts) failed)
            delivered \(delivered) of \(expected): lost \(lost), duplicated \(duplicated)
            write-to-delivery ms: p50 \(latencyP50MS) p99 \(latencyP99MS) max \(latencyMaxMS)
            health checks per socket: at least \(healthChecksMin)
            """
        }
    }

    /// What one socket saw, written by that socket's event loop only (so its lock is rarely contended):
    /// when each post arrived, its health checks, its connection id.
    final class SocketLog: Sendable {
        struct State {
            var arrivals: [(seq: Int, at: ContinuousClock.Instant)] = []
            var healthChecks = 0
            var connectionID: String?
        }
        let state = Shared(State())

        func record(_ message: ByteBuffer) {
            let now = ContinuousClock.now
            if let seq = RealtimeRun.number(after: #""text":"rt-"#, in: message) {
                state.withLock { $0.arrivals.append((seq, now)) }
            } else if RealtimeRun.offset(of: #""type":"health.check""#, in: message) != nil {
                state.withLock { $0.healthChecks += 1 }
            } else if let id = RealtimeRun.connectionID(String(buffer: message)) {
                state.withLock { $0.connectionID = id }
            }
        }

        func saw(_ seq: Int) -> Bool { state.withLock { $0.arrivals.contains { $0.seq == seq } } }
        var count: Int { state.withLock { $0.arrivals.count } }
    }

    let options: Options
    let logger: Logger

    public init(options: Options, logger: Logger = Logger(label: "feeds-loadtest")) {
        self.options = options
        self.logger = logger
    }

    public func run() async throws -> Report {
        guard options.watchers >= 1 else { throw LoadTestError("--watchers must be at least 1") }
        guard options.rate >= 0, options.seconds > 0 else { throw LoadTestError("--rate must not be negative, --duration positive") }
        let minter = await TokenMinter(apiSecret: options.apiSecret)
        let author = "\(options.userPrefix)-author"
        let client = HTTPClient.shared
        let authorToken = try await minter.token(for: author)
        try await call(client, "/feeds/feed_groups/user/feeds/\(author)", token: authorToken, body: "{}")

        // The sockets, and each watching the author's feed once connected.
        let sent = Shared<[Int: ContinuousClock.Instant]>([:])
        var sockets: [WatcherSocket] = []
        var logs: [SocketLog] = []
        for index in 0..<options.watchers {
            let user = "\(options.userPrefix)-w\(index)"
            let log = SocketLog()
            logs.append(log)
            sockets.append(
                try WatcherSocket(
                    url: options.webSocketURL, apiKey: options.apiKey, userID: user, token: try await minter.token(for: user),
                    logger: logger, onMessage: { log.record($0) }))
        }
        let all = logs
        try await waitFor("every socket connected", seconds: 120) { all.allSatisfy { $0.state.withLock { $0.connectionID != nil } } }
        let ids = all.map { $0.state.withLock { $0.connectionID! } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for batch in stride(from: 0, to: options.watchers, by: 64) {
                group.addTask {
                    for index in batch..<min(batch + 64, options.watchers) {
                        let user = "\(options.userPrefix)-w\(index)"
                        try await call(
                            client, "/feeds/feed_groups/user/feeds/\(author)", token: try await minter.token(for: user),
                            body: #"{"watch":true,"limit":1}"#, query: "&connection_id=\(ids[index])")
                    }
                }
            }
            try await group.waitForAll()
        }

        var posts = 0
        var acknowledged: [Int] = []
        var failedPosts = 0
        if options.rate > 0 {
            // A probe every watcher must get first: watches forwarded to another node are in place.
            let probe = -1
            try await post(client, seq: probe, token: authorToken, author: author, sent: sent)
            try await waitFor("the probe reaching every socket", seconds: 120) { all.allSatisfy { $0.saw(probe) } }
            let clock = ContinuousClock()
            let start = clock.now
            let interval = Duration.seconds(1 / options.rate)
            let total = Int(options.seconds * options.rate)
            await withTaskGroup(of: (Int, Bool).self) { group in
                for seq in 0..<total {
                    try? await clock.sleep(until: start + interval * seq)
                    group.addTask {
                        let ok = (try? await post(client, seq: seq, token: authorToken, author: author, sent: sent)) != nil
                        return (seq, ok)
                    }
                }
                for await (seq, ok) in group {
                    if ok { acknowledged.append(seq) } else { failedPosts += 1 }
                }
            }
            posts = total
            let expected = acknowledged.count
            try? await waitFor("late events", seconds: options.patience) { all.allSatisfy { $0.count - 1 >= expected } }
        } else {
            // Said on stdout, for a script that samples the server's memory meanwhile.
            print("holding \(options.watchers) sockets for \(options.seconds) s")
            fflush(nil)
            try? await Task.sleep(for: .seconds(options.seconds))
        }
        for socket in sockets { await socket.close() }

        let sentAt = sent.withLock { $0 }
        var latency = Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
        var (lost, duplicated, delivered) = (0, 0, 0)
        var examples: [String] = []
        for (index, log) in all.enumerated() {
            let state = log.state.withLock { $0 }
            var seen = Set<Int>()
            for (seq, at) in state.arrivals {
                guard seen.insert(seq).inserted else { duplicated += 1; continue }
                guard seq >= 0 else { continue }
                delivered += 1
                if let start = sentAt[seq] {
                    let elapsed = (at - start).components
                    latency.record(UInt64(max(0, elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000)))
                }
            }
            for seq in acknowledged where !seen.contains(seq) {
                lost += 1
                if examples.count < 5 { examples.append("post \(seq) never reached watcher \(index)") }
            }
        }
        return Report(
            watchers: options.watchers, posts: posts, acknowledged: acknowledged.count,
            expected: acknowledged.count * options.watchers, delivered: delivered, lost: lost, duplicated: duplicated,
            failedPosts: failedPosts, latencyP50MS: latency.millis(atPercentile: 50), latencyP99MS: latency.millis(atPercentile: 99),
            latencyMaxMS: latency.totalCount == 0 ? 0 : Double(latency.max) / 1000,
            healthChecksMin: all.map { $0.state.withLock { $0.healthChecks } }.min() ?? 0, lostExamples: examples)
    }

    private func post(
        _ client: HTTPClient, seq: Int, token: String, author: String, sent: Shared<[Int: ContinuousClock.Instant]>
    ) async throws {
        sent.withLock { $0[seq] = ContinuousClock.now }
        try await call(
            client, "/feeds/activities", token: token, body: #"{"type":"post","feeds":["user:\#(author)"],"text":"rt-\#(seq)"}"#)
    }

    private func call(_ client: HTTPClient, _ path: String, token: String, body: String, query: String = "") async throws {
        var request = HTTPClientRequest(url: "\(options.url)/api/v2\(path)?api_key=\(options.apiKey)\(query)")
        request.method = .POST
        request.headers.add(name: "Authorization", value: token)
        request.headers.add(name: "Stream-Auth-Type", value: "jwt")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: .seconds(60))
        let reply = try await response.body.collect(upTo: 16 << 20)
        guard response.status.code == 201 else {
            throw LoadTestError("\(path): HTTP \(response.status.code) \(String(buffer: reply).prefix(200))")
        }
    }

    private func waitFor(_ what: String, seconds: Double, _ done: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !done() {
            guard ContinuousClock.now < deadline else { throw LoadTestError("timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The integer right after `marker` in `message` (a leading `-` allowed).
    static func number(after marker: String, in message: ByteBuffer) -> Int? {
        let bytes = message.readableBytesView
        guard let offset = offset(of: marker, in: message) else { return nil }
        var value = 0
        var sign = 1
        var at = bytes.startIndex + offset + marker.utf8.count
        if at < bytes.endIndex, bytes[at] == UInt8(ascii: "-") {
            sign = -1
            at += 1
        }
        var digits = 0
        while at < bytes.endIndex, (48...57).contains(bytes[at]) {
            value = value * 10 + Int(bytes[at] - 48)
            digits += 1
            at += 1
        }
        return digits > 0 ? sign * value : nil
    }

    /// Where `marker` starts in `message`, found with `memchr` and `memcmp`: a run reads a
    /// hundred thousand messages a second, and a generic search over a `ByteBufferView` took both cores.
    static func offset(of marker: String, in message: ByteBuffer) -> Int? {
        let needle = Array(marker.utf8)
        return message.withUnsafeReadableBytes { haystack -> Int? in
            guard let base = haystack.baseAddress, !needle.isEmpty, needle.count <= haystack.count else { return nil }
            let last = haystack.count - needle.count
            var start = 0
            while start <= last {
                guard let hit = memchr(base + start, Int32(needle[0]), last - start + 1) else { return nil }
                let at = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + at, needle, needle.count) == 0 { return at }
                start = at + 1
            }
            return nil
        }
    }

    /// The id `connection.ok` gives.
    static func connectionID(_ message: String) -> String? {
        guard message.contains(#""type":"connection.ok""#), let range = message.range(of: #""connection_id":""#) else { return nil }
        let rest = message[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
