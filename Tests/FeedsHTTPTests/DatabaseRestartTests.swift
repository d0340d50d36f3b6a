import FeedsCore
import FeedsPostgres
import FeedsTestSupport
import Foundation
import PostgresNIO
import Synchronization
import Testing

/// PostgreSQL killed (as a crash would) and restarted under a steady load of posts: every request
/// is answered, 201 or 503 and nothing else; every acknowledged post is in the database after;
/// nothing stays counted as in flight; SIGTERM still stops the server. The node has a cluster of
/// its own, so stopping it touches no other test. No assertion is on time.
@Suite struct DatabaseRestartTests {
    /// What the posters saw: the ids acknowledged, and every answer's status.
    final class Ledger: Sendable {
        let acknowledged = Mutex<[String]>([])
        let statuses = Mutex<[Int: Int]>([:])
        let failures = Mutex<[String]>([])
        /// The bodies of answers other than 201 and 503.
        let unexpected = Mutex<[String]>([])
        let running = Atomic(true)

        var acknowledgedCount: Int { acknowledged.withLock { $0.count } }
        func count(_ status: Int) -> Int { statuses.withLock { $0[status, default: 0] } }
    }

    @Test func aDatabaseCrashAndRestartMidLoadLosesNoAcknowledgedPost() async throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("feeds-pg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Stopping by data directory: `cluster` stops whichever start of it is running.
        let cluster = try await EmbeddedPostgres.start(in: directory, logger: TestDatabase.logger)
        do {
            try await crashAndRestart(cluster, in: directory)
        } catch {
            try? await cluster.stop()
            throw error
        }
        try await cluster.stop()
    }

    func crashAndRestart(_ cluster: EmbeddedPostgres, in directory: URL) async throws {
        let database = cluster.configuration
        let port = try #require(database.port)
        let password = try #require(database.password)
        let url = "postgres://\(database.username):\(password)@127.0.0.1:\(port)/postgres?sslmode=disable"

        try await TestServer.run { server in
            let node = try await FeedsNode(
                databaseURL: url, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret, port: try freeLoopbackPort(),
                environment: ["FEEDS_REQUEST_TIMEOUT": "5", "FEEDS_DRAIN_TIMEOUT": "5", "FEEDS_DATABASE_CONNECTIONS": "4"])
            defer { node.stop() }
            let token = try await server.token("alice")
            let ledger = Ledger()

            let posters = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<8 {
                        group.addTask {
                            var sent = 0
                            while ledger.running.load(ordering: .relaxed) {
                                sent += 1
                                let text = "post \(worker)-\(sent)"
                                let reply: TestServer.Reply
                                do {
                                    reply = try await TestServer.send(
                                        .POST, "\(node.baseURL)/api/v2/feeds/activities?api_key=\(TestServer.apiKey)",
                                        body: Data(#"{"type":"post","feeds":["user:alice"],"text":"\#(text)"}"#.utf8),
                                        headers: [
                                            ("Authorization", token), ("Stream-Auth-Type", "jwt"), ("Content-Type", "application/json"),
                                        ])
                                } catch {
                                    ledger.failures.withLock { $0.append("\(text): \(error)") }
                                    continue
                                }
                                ledger.statuses.withLock { $0[reply.status, default: 0] += 1 }
                                if reply.status == 201, let id = reply.body["activity"]["id"].string {
                                    ledger.acknowledged.withLock { $0.append(id) }
                                } else if reply.status != 503 {
                                    ledger.unexpected.withLock { $0.append("\(reply.status) \(reply.text)") }
                                } else {
                                    // Told to come back: as a client would, after a moment.
                                    try await Task.sleep(for: .milliseconds(20))
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }

            try await eventually("posts acknowledged before the crash") { ledger.acknowledgedCount >= 40 }
            try await cluster.stop(immediately: true)
            try await eventually("posts refused while the database is down") { ledger.count(503) >= 8 }
            let before = ledger.acknowledgedCount
            // The node knows the database by its port; a socket of another test may hold that port
            // for a moment after the crash freed it, so the start is tried again until it binds.
            try await eventually("the database restarted on its port", every: .seconds(1)) {
                (try? await EmbeddedPostgres.start(in: directory, port: port, logger: TestDatabase.logger)) != nil
            }
            try await eventually("posts acknowledged after the restart") { ledger.acknowledgedCount >= before + 40 }
            ledger.running.store(false, ordering: .relaxed)
            try await hangGuard("the posters to finish", seconds: 300) { try await posters.value }

            #expect(ledger.failures.withLock { $0 }.isEmpty, "requests never answered")
            let statuses = ledger.statuses.withLock { $0 }
            #expect(Set(statuses.keys).isSubset(of: [201, 503]), "\(statuses): \(ledger.unexpected.withLock { $0.prefix(3) })")

            // Every acknowledged post survived the crash.
            let acknowledged = Set(ledger.acknowledged.withLock { $0 })
            let stored = try await TestDatabase.withClient(database) { client in
                var ids = Set<String>()
                for try await id in try await client.query("SELECT id::text FROM activities", logger: TestDatabase.logger)
                    .decode(String.self)
                {
                    ids.insert(id)
                }
                return ids
            }
            #expect(acknowledged.subtracting(stored).isEmpty, "acknowledged and lost: \(acknowledged.subtracting(stored).count)")

            // Nothing is left counted as in flight, and SIGTERM still ends the process.
            try await eventually("no request counted as in flight") {
                let metrics = try await TestServer.send(.GET, "\(node.baseURL)/metrics").text
                return Self.activePosts(metrics) == 0
            }
            try await node.terminate()
        }
    }

    /// The POSTs Hummingbird counts as in flight, or nil when the gauge is absent. (The scrape
    /// itself is a GET in flight.)
    static func activePosts(_ metrics: String) -> Double? {
        metrics.split(separator: "\n")
            .first { $0.hasPrefix("http_server_active_requests") && $0.contains(#""POST""#) }
            .flatMap { $0.split(separator: " ").last.flatMap { Double($0) } }
    }
}
