import FeedsCore
import FeedsLoadTest
import FeedsPostgres
import FeedsTestSupport
import Foundation
import Synchronization
import Testing

/// The receiver goes down, then PostgreSQL is killed and restarted, while posts go on: every
/// acknowledged post's `feeds.activity.added` reaches the receiver once it is back. The node has
/// a cluster of its own, so the crash touches no other test. No assertion is on time.
@Suite struct WebhookRestartTests {
    final class Ledger: Sendable {
        let acknowledged = Mutex<[String]>([])
        let refused = Atomic(0)
        let running = Atomic(true)
        var count: Int { acknowledged.withLock { $0.count } }
    }

    @Test func aReceiverAndDatabaseRestartMidStreamLoseNoEvent() async throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("feeds-pg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try await EmbeddedPostgres.start(in: directory, logger: TestDatabase.logger)
        let receiver = try await WebhookReceiver()
        do {
            try await restartMidStream(cluster, in: directory, receiver: receiver)
        } catch {
            await receiver.stop()
            try? await cluster.stop()
            throw error
        }
        await receiver.stop()
        try await cluster.stop()
    }

    func restartMidStream(_ cluster: EmbeddedPostgres, in directory: URL, receiver: WebhookReceiver) async throws {
        let database = cluster.configuration
        let port = try #require(database.port)
        let password = try #require(database.password)
        let url = "postgres://\(database.username):\(password)@127.0.0.1:\(port)/postgres?sslmode=disable"

        try await TestServer.run { server in
            let node = try await FeedsNode(
                databaseURL: url, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret, port: try freeLoopbackPort(),
                environment: [
                    "FEEDS_REQUEST_TIMEOUT": "5", "FEEDS_DRAIN_TIMEOUT": "5", "FEEDS_DATABASE_CONNECTIONS": "4",
                    "FEEDS_WEBHOOK_ALLOWED_HOSTS": "127.0.0.1", "FEEDS_WEBHOOK_MAX_BACKOFF": "1",
                ])
            defer { node.stop() }
            let serverToken = try await server.token(nil)
            let settings = try await TestServer.send(
                .PATCH, "\(node.baseURL)/api/v2/app?api_key=\(TestServer.apiKey)",
                body: Data(#"{"webhook_url":"\#(receiver.url)"}"#.utf8),
                headers: [("Authorization", serverToken), ("Stream-Auth-Type", "jwt"), ("Content-Type", "application/json")])
            #expect(settings.status == 200, "\(settings.text)")
            let ledger = Ledger()
            let posters = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<4 {
                        let token = try await server.token("poster\(worker)")
                        group.addTask {
                            var sent = 0
                            while ledger.running.load(ordering: .relaxed) {
                                sent += 1
                                let reply = try? await TestServer.send(
                                    .POST, "\(node.baseURL)/api/v2/feeds/activities?api_key=\(TestServer.apiKey)",
                                    body: Data(#"{"type":"post","feeds":["user:poster\#(worker)"],"text":"\#(sent)"}"#.utf8),
                                    headers: [("Authorization", token), ("Stream-Auth-Type", "jwt"), ("Content-Type", "application/json")])
                                if let reply, reply.status == 201, let id = reply.body["activity"]["id"].string {
                                    ledger.acknowledged.withLock { $0.append(id) }
                                } else {
                                    ledger.refused.add(1, ordering: .relaxed)
                                    try await Task.sleep(for: .milliseconds(20))
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }

            try await eventually("posts delivered before anything stops") { WebhookTests.answered(receiver).count >= 20 }
            await receiver.stop()
            let down = ledger.count
            try await eventually("posts acknowledged while the receiver is down") { ledger.count >= down + 30 }
            try await cluster.stop(immediately: true)
            try await eventually("posts refused while the database is down") { ledger.refused.load(ordering: .relaxed) >= 8 }
            try await eventually("the database restarted on its port", every: .seconds(1)) {
                (try? await EmbeddedPostgres.start(in: directory, port: port, logger: TestDatabase.logger)) != nil
            }
            let restarted = ledger.count
            try await eventually("posts acknowledged after the restart") { ledger.count >= restarted + 30 }
            // Its port may be held a moment (a retry's connection that met no listener): tried until it binds.
            try await eventually("the receiver listening again", every: .milliseconds(200)) {
                (try? await receiver.start()) != nil
            }
            ledger.running.store(false, ordering: .relaxed)
            try await hangGuard("the posters to finish", seconds: 300) { try await posters.value }

            let acknowledged = Set(ledger.acknowledged.withLock { $0 })
            do {
                try await eventually("every acknowledged post delivered", seconds: 300) {
                    acknowledged.isSubset(of: WebhookTests.answered(receiver))
                }
            } catch {
                let missing = acknowledged.subtracting(WebhookTests.answered(receiver))
                let outbox = try await TestDatabase.withClient(database) { client in
                    try await PostgresWebhookOutbox(client: client).summary(logger: TestDatabase.logger)
                }
                let retrying = outbox.retrying.map { "\($0.attempts) attempts: \($0.error)" } ?? "no error"
                let report = "\(missing.count) of \(acknowledged.count) acknowledged posts not delivered; outbox: "
                    + "\(outbox.pending) pending, \(outbox.failed) failed, \(retrying)"
                Issue.record(Comment(rawValue: report))
                throw error
            }
            // Delivery is at least once: a crash between a 2xx and its row's delete may send one again.
            let extra = receiver.deliveries.filter(\.answered).count - Set(receiver.deliveries.filter(\.answered).map(\.webhookID)).count
            #expect(extra <= 4 * WebhookPublisher.lanesPerHook, "\(extra) repeats")
        }
    }
}

extension WebhookTests {
    /// The activity ids of the `feeds.activity.added` events the receiver answered 2xx.
    static func answered(_ receiver: WebhookReceiver) -> Set<String> {
        Set(delivered(receiver, type: "feeds.activity.added"))
    }
}
