import FeedsCore
import FeedsTestSupport
import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing

/// Fan-out keeps going while followers churn: two authors with 1,000 followers each post while 16
/// of those followers unfollow and follow both again without pause. Every post's copies must
/// finish while the churn goes on (before, jobs sat for minutes, their tries lost to deadlocks with
/// follow backfills, and finished only after the churn stopped); no job is set aside; PostgreSQL
/// reports no deadlock; and at the end each timeline holds exactly what its follows say.
@Suite struct FanoutChurnTests {
    static let authors = ["star", "nova"]
    static let posts = 25

    @Test func postsFanOutWhileFollowersChurnAndNothingDeadlocks() async throws {
        let lines = LogRedactionTests.Lines()
        var logger = Logger(label: "feeds") { _ in LogRedactionTests.Capture(lines: lines) }
        logger.logLevel = .notice
        try await TestServer.run(configure: { $0.databaseConnections = 8 }, logger: logger) { server in
            var setup: [String] = []
            for author in Self.authors {
                setup += [
                    "INSERT INTO users (id) VALUES ('\(author)')",
                    "INSERT INTO feeds (fid, group_id, feed_id, created_by) VALUES ('user:\(author)', 'user', '\(author)', '\(author)')",
                ] + FanoutFixture.fans(1000, of: "user:\(author)")
            }
            for statement in setup {
                _ = try await server.database.query(PostgresQuery(unsafeSQL: statement), logger: TestDatabase.logger)
            }
            let churn = Churn()

            try await withThrowingTaskGroup(of: Void.self) { group in
                for fan in 1...16 {
                    group.addTask {
                        while churn.going.load(ordering: .relaxed) {
                            for author in Self.authors {
                                let gone = try await server.api(
                                    .DELETE, "/feeds/follows/timeline:fan\(fan)/user:\(author)", as: "fan\(fan)")
                                #expect([200, 404].contains(gone.status), "\(gone.text)")
                                let back = try await server.follow("timeline:fan\(fan)", "user:\(author)", as: "fan\(fan)")
                                #expect(back.status == 201, "\(back.text)")
                            }
                            churn.rounds.add(1, ordering: .relaxed)
                        }
                    }
                }
                try await withThrowingTaskGroup(of: Void.self) { posters in
                    for author in Self.authors {
                        posters.addTask {
                            for index in 0..<Self.posts { try await server.addActivity(as: author, text: "post \(index)") }
                        }
                    }
                    try await posters.waitForAll()
                }
                // The posts' copies finish under churn: the churners stop only after.
                try await eventually("every post's fan-out to finish while followers churn") {
                    try await server.number("SELECT count(*)::int FROM fanout_jobs WHERE kind = 'post'") == 0
                }
                #expect(churn.rounds.load(ordering: .relaxed) > 0)
                churn.going.store(false, ordering: .relaxed)
                try await group.waitForAll()
            }
            try await server.waitForFanout()

            #expect(try await server.number("SELECT count(*)::int FROM fanout_jobs WHERE failed_at IS NOT NULL") == 0)
            // Every deadlock PostgreSQL breaks fails a statement, and the server logs its retry.
            let deadlocks = lines.all.withLock { $0.filter { $0.contains("40P01") } }
            #expect(deadlocks.isEmpty, "\(deadlocks.count) deadlocks: \(deadlocks.prefix(3))")
            for author in Self.authors {
                #expect(try await server.timelinesDisagreeing(about: "user:\(author)", posts: Self.posts) == 0, "\(author)")
            }
        }
    }
}

/// Whether the churners go on, and how many rounds they made.
final class Churn: Sendable {
    let going = Atomic(true)
    let rounds = Atomic(0)
}
