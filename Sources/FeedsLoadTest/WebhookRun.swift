import AsyncHTTPClient
import Foundation
import Histogram
import NIOCore
import NIOHTTP1

/// `feeds loadtest --scenario webhooks`: a receiver on loopback (`WebhookReceiver`) becomes the
/// app's `webhook_url`, then `users` authors post `rate` activities a second between them (each
/// to their own feed, so the events spread over the outbox's lanes): one AddActivity each, or
/// with `batch` over 1, UpsertActivities calls of that many (the server's, naming each author).
/// The report gives, for every acknowledged post, the time from its 201 (the write committed) to
/// its `feeds.activity.added` reaching the receiver, the rate the receiver got them at, and what
/// never came or came twice (by `X-Webhook-Id`). The server must allow 127.0.0.1 (`FEEDS_WEBHOOK_ALLOWED_HOSTS`).
public struct WebhookRun: Sendable {
    public struct Options: Sendable {
        public var url: String
        public var apiKey: String
        public var apiSecret: String
        /// Posts per second.
        public var rate: Double
        public var seconds: Double
        public var users: Int
        public var userPrefix: String
        /// Seconds the count waits for late deliveries before they count as lost.
        public var patience: Double = 30
        /// Activities a request: 1 posts each with AddActivity, more through UpsertActivities.
        public var batch = 1

        public init(url: String, apiKey: String, apiSecret: String, rate: Double, seconds: Double, users: Int, userPrefix: String)
        {
            self.url = url.hasSuffix("/") ? String(url.dropLast()) : url
            (self.apiKey, self.apiSecret, self.rate, self.seconds, self.users, self.userPrefix) =
                (apiKey, apiSecret, rate, seconds, users, userPrefix)
        }
    }

    public struct Report: Sendable, Codable, Equatable {
        public var posts: Int
        public var acknowledged: Int
        public var delivered: Int
        public var lost: Int
        public var doubled: Int
        public var failedPosts: Int
        /// Deliveries a second, from the first to the last.
        public var deliveredPerSecond: Double
        public var latencyP50MS: Double
        public var latencyP99MS: Double
        public var latencyMaxMS: Double

        enum CodingKeys: String, CodingKey {
            case posts, acknowledged, delivered, lost, doubled
            case failedPosts = "failed_posts"
            case deliveredPerSecond = "delivered_per_second"
            case latencyP50MS = "latency_p50_ms"
            case latencyP99MS = "latency_p99_ms"
            case latencyMaxMS = "latency_max_ms"
        }

        public var failed: Bool { lost > 0 || doubled > 0 || failedPosts > 0 }

        public var table: String {
            """
            webhooks: \(posts) posts (\(acknowledged) acknowledged, \(failedPosts) failed)
            delivered \(delivered) at \(String(format: "%.0f", deliveredPerSecond))/s: lost \(lost), doubled \(doubled)
            commit-to-delivery ms: p50 \(latencyP50MS) p99 \(latencyP99MS) max \(latencyMaxMS)
            """
        }
    }

    let options: Options

    public init(options: Options) {
        self.options = options
    }

    public func run() async throws -> Report {
        guard options.rate > 0, options.seconds > 0, options.users > 0 else {
            throw LoadTestError("--rate, --duration and --users must be positive")
        }
        let receiver = try await WebhookReceiver()
        defer { Task { await receiver.stop() } }
        let minter = await TokenMinter(apiSecret: options.apiSecret)
        let client = HTTPClient.shared
        let serverToken = try await minter.serverToken()
        try await call(client, .PATCH, "/app", token: serverToken, body: #"{"webhook_url":"\#(receiver.url)"}"#, expect: 200)
        let authors = (0..<options.users).map { "\(options.userPrefix)-\($0)" }
        let tokens = try await minter.tokens(for: authors)

        let acknowledgedAt = Shared<[Int: ContinuousClock.Instant]>([:])
        let clock = ContinuousClock()
        let start = clock.now
        let interval = Duration.seconds(1 / options.rate)
        let total = Int(options.seconds * options.rate)
        var failedPosts = 0
        let batch = max(1, options.batch)
        await withTaskGroup(of: Int.self) { group in
            for first in stride(from: 0, to: total, by: batch) {
                try? await clock.sleep(until: start + interval * first)
                let seqs = Array(first..<min(first + batch, total))
                group.addTask {
                    let (path, token, body) =
                        if batch == 1 {
                            ("/feeds/activities", tokens[first % authors.count], Self.activity(first, authors, named: false))
                        } else {
                            (
                                "/feeds/activities/batch", serverToken,
                                #"{"activities":[\#(seqs.map { Self.activity($0, authors, named: true) }.joined(separator: ","))]}"#
                            )
                        }
                    guard (try? await call(client, .POST, path, token: token, body: body, expect: 201)) != nil
                    else { return seqs.count }
                    let now = ContinuousClock.now
                    acknowledgedAt.withLock { for seq in seqs { $0[seq] = now } }
                    return 0
                }
            }
            for await failed in group { failedPosts += failed }
        }
        let acknowledged = acknowledgedAt.withLock { $0 }
        let deadline = clock.now + .seconds(options.patience)
        while clock.now < deadline, Self.arrivals(receiver.deliveries).count < acknowledged.count {
            try await Task.sleep(for: .milliseconds(50))
        }
        try? await call(client, .PATCH, "/app", token: serverToken, body: #"{"webhook_url":""}"#, expect: 200)

        let deliveries = receiver.deliveries
        let arrivals = Self.arrivals(deliveries)
        var latency = Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
        for (seq, at) in arrivals {
            guard let committed = acknowledged[seq] else { continue }
            let elapsed = (at - committed).components
            latency.record(UInt64(max(0, elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000)))
        }
        let ids = deliveries.filter(\.answered).map(\.webhookID)
        let times = arrivals.values
        let span = times.max().flatMap { last in times.min().map { last - $0 } } ?? .zero
        let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
        return Report(
            posts: total, acknowledged: acknowledged.count, delivered: arrivals.count,
            lost: acknowledged.keys.filter { arrivals[$0] == nil }.count, doubled: ids.count - Set(ids).count,
            failedPosts: failedPosts, deliveredPerSecond: seconds > 0 ? Double(arrivals.count) / seconds : 0,
            latencyP50MS: latency.millis(atPercentile: 50), latencyP99MS: latency.millis(atPercentile: 99),
            latencyMaxMS: latency.totalCount == 0 ? 0 : Double(latency.max) / 1000)
    }

    /// Post `seq`, by its author (named in it for the server's batch).
    static func activity(_ seq: Int, _ authors: [String], named: Bool) -> String {
        let author = authors[seq % authors.count]
        let user = named ? #","user_id":"\#(author)""# : ""
        return #"{"type":"post","feeds":["user:\#(author)"],"text":"wh-\#(seq)"\#(user)}"#
    }

    /// When each post's `feeds.activity.added` first arrived, by its number.
    static func arrivals(_ deliveries: [WebhookReceiver.Delivery]) -> [Int: ContinuousClock.Instant] {
        var arrivals: [Int: ContinuousClock.Instant] = [:]
        for delivery in deliveries where delivery.answered {
            let body = ByteBuffer(bytes: delivery.body)
            guard RealtimeRun.offset(of: #""type":"feeds.activity.added""#, in: body) != nil,
                let seq = RealtimeRun.number(after: #""text":"wh-"#, in: body), arrivals[seq] == nil
            else { continue }
            arrivals[seq] = delivery.arrived
        }
        return arrivals
    }

    private func call(
        _ client: HTTPClient, _ method: HTTPMethod, _ path: String, token: String, body: String, expect: UInt
    ) async throws {
        var request = HTTPClientRequest(url: "\(options.url)/api/v2\(path)?api_key=\(options.apiKey)")
        request.method = method
        request.headers.add(name: "Authorization", value: token)
        request.headers.add(name: "Stream-Auth-Type", value: "jwt")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: .seconds(60))
        let reply = try await response.body.collect(upTo: 16 << 20)
        guard response.status.code == expect else {
            throw LoadTestError("\(path): HTTP \(response.status.code) \(String(buffer: reply).prefix(200))")
        }
    }
}
