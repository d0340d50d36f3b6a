import FeedsLoadTest
import FeedsTestSupport
import Foundation
import Testing

/// Short runs against the real server on a real database.
@Suite struct LoadRunnerTests {
    func options(_ url: String, _ scenario: Scenario, requests: Int, users: Int = 3) -> LoadTestOptions {
        LoadTestOptions(
            url: url, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret, scenario: scenario, concurrency: 4,
            limit: .requests(requests), users: users, fileSize: 3000, userPrefix: "lt-\(UUID().uuidString.prefix(8))"
        )
    }

    @Test func aCreateRunReportsEveryRequestAndReadsEveryActivityBack() async throws {
        try await TestServer.run { server in
            let report = try await LoadRunner(
                options: options(server.baseURL, .createActivity, requests: 30), showProgress: false
            ).run()
            #expect(report.requests == 30 && report.ok == 30 && report.errors == 0)
            #expect(report.operations == ["create-activity": 30])
            #expect(report.checked == 30 && report.lost == 0)
            #expect(!report.failed)
            #expect(report.throughputRPS > 0)
            #expect(
                report.latencyMS.p50 > 0 && report.latencyMS.p50 <= report.latencyMS.p99
                    && report.latencyMS.p99 <= report.latencyMS.max)
            let rows = try await server.database.query(
                "SELECT count(*) FROM activities WHERE type = 'loadtest'", logger: TestDatabase.logger)
            for try await count in rows.decode(Int.self) { #expect(count == 30) }
        }
    }

    @Test func theJSONReportHoldsTheFieldsScriptsRead() async throws {
        try await TestServer.run { server in
            let report = try await LoadRunner(options: options(server.baseURL, .uploadFile, requests: 6), showProgress: false)
                .run()
            let json = try #require(try JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
            #expect(json["scenario"] as? String == "upload-file")
            #expect(json["requests"] as? Int == 6)
            #expect(json["ok"] as? Int == 6)
            #expect(json["errors"] as? Int == 0)
            #expect(json["lost"] as? Int == 0)
            #expect((json["throughput_rps"] as? Double ?? 0) > 0)
            #expect((json["upload_mb_per_s"] as? Double ?? 0) > 0)
            let latency = try #require(json["latency_ms"] as? [String: Double])
            for field in ["p50", "p90", "p99", "p99_9", "max"] { #expect((latency[field] ?? 0) > 0, "latency_ms.\(field)") }
            #expect(report.table.contains("requests") && report.table.contains("MB/s"))
        }
    }

    @Test func aMixedRunDealsItsShareOfEachOperationAndLosesNothing() async throws {
        try await TestServer.run { server in
            let report = try await LoadRunner(options: options(server.baseURL, .mixed, requests: 40), showProgress: false).run()
            #expect(report.operations == ["read-feed": 20, "create-activity": 12, "upload-file": 4, "activity-with-uploads": 4])
            #expect(report.ok == 40, "\(report.errorsByStatus)")
            // The seeded page of each of the 3 users, and every write of the run.
            #expect(report.checked == 3 * 25 + 12 + 4 + 4)
            #expect(report.lost == 0, "\(report.lostExamples)")
        }
    }

    /// Four readers each following three authors: every post is looked for in three timelines.
    @Test func aTimelineRunFindsEveryPostInEveryFollowersTimeline() async throws {
        try await TestServer.run { server in
            let report = try await LoadRunner(options: options(server.baseURL, .timeline, requests: 40, users: 4), showProgress: false)
                .run()
            #expect(report.operations == ["read-timeline": 28, "create-activity": 12])
            #expect(report.ok == 40, "\(report.errorsByStatus)")
            #expect(report.checked == 12 && report.timelineChecked == 12 * 3)
            #expect(report.lost == 0, "\(report.lostExamples)")
            #expect(report.table.contains("post and follower pairs"))
            let rows = try await server.database.query(
                "SELECT count(*)::int FROM follows WHERE status = 'accepted'", logger: TestDatabase.logger)
            for try await count in rows.decode(Int.self) { #expect(count == 4 * 3) }
        }
    }

    /// With no fan-out worker running, no post reaches a timeline: the check says so, per pair.
    @Test func aTimelineRunReportsPostsTheFanOutNeverCopied() async throws {
        try await TestServer.run(configure: { $0.fanoutWorkers = 0 }) { server in
            var stalled = options(server.baseURL, .timeline, requests: 10, users: 4)
            stalled.fanoutPatience = 1
            let report = try await LoadRunner(options: stalled, showProgress: false).run()
            #expect(report.ok == 10 && report.checked == 3 && report.timelineChecked == 9)
            #expect(report.lost == 9 && report.failed)
            #expect(report.lostExamples.allSatisfy { $0.contains("missing from timeline:") }, "\(report.lostExamples)")
        }
    }

    @Test func requestsTheServerRefusesAreErrorsByStatus() async throws {
        try await TestServer.run { server in
            var wrong = options(server.baseURL, .createActivity, requests: 5)
            wrong.apiSecret = "another-secret-0123456789abcdef0123456789"
            let report = try await LoadRunner(options: wrong, showProgress: false).run()
            #expect(report.ok == 0 && report.errors == 5)
            #expect(report.errorsByStatus == ["401": 5])
            #expect(report.failed)
            #expect(report.table.contains("401: 5"))
        }
    }

    /// The run ending at all shows it stopped; the time limit is the hang guard (an upper bound
    /// in seconds failed whenever the machine was busy).
    @Test(.timeLimit(.minutes(10))) func aRunForADurationStopsOnTime() async throws {
        try await TestServer.run { server in
            var timed = options(server.baseURL, .createActivity, requests: 1)
            timed.limit = .duration(seconds: 1)
            timed.warmup = 0.3
            let report = try await LoadRunner(options: timed, showProgress: false).run()
            #expect(report.durationSeconds >= 1)
            #expect(report.requests > 0 && report.errors == 0)
            // Warm-up writes are acknowledged writes too: they are read back with the rest.
            #expect(report.checked > report.requests)
            #expect(report.lost == 0)
        }
    }
}
