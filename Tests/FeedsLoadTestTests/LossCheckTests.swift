import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsLoadTest

/// The loss check against a server that acknowledges writes and then loses them (`LossyProxy`).
@Suite struct LossCheckTests {
    /// A short run through a proxy that undoes every `every`-th write; the report and what the proxy undid.
    func run(_ scenario: Scenario, requests: Int, every: Int, fault: LossyProxy.Fault = .drop) async throws
        -> (LoadReport, [String])
    {
        let result = Shared<(LoadReport, [String])?>(nil)
        try await TestServer.run { server in
            try await LossyProxy.run(in: server, every: every, fault: fault) { proxy in
                let options = LoadTestOptions(
                    url: proxy.baseURL, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret, scenario: scenario,
                    concurrency: 3, limit: .requests(requests), users: 2, fileSize: 2000,
                    userPrefix: "loss-\(UUID().uuidString.prefix(8))"
                )
                let report = try await LoadRunner(options: options, showProgress: false).run()
                result.withLock { $0 = (report, proxy.faultedWrites) }
            }
        }
        return try #require(result.withLock { $0 })
    }

    @Test func droppedActivitiesAreCountedLostAndNamed() async throws {
        let (report, dropped) = try await run(.createActivity, requests: 20, every: 5)
        #expect(report.ok == 20 && report.errors == 0)
        #expect(dropped.count == 4)
        #expect(report.lost == 4)
        #expect(report.checked == 20)
        #expect(report.failed)
        for id in dropped {
            #expect(report.lostExamples.contains { $0.contains(id) && $0.hasSuffix("missing") }, "\(id)")
        }
    }

    @Test func alteredActivitiesAreCountedLost() async throws {
        let (report, altered) = try await run(.createActivity, requests: 12, every: 4, fault: .alter)
        #expect(report.lost == 3 && altered.count == 3)
        #expect(report.lostExamples.allSatisfy { $0.hasSuffix("text differs") })
    }

    @Test func droppedUploadsAreCountedLost() async throws {
        let (report, dropped) = try await run(.uploadFile, requests: 6, every: 3)
        #expect(report.ok == 6)
        #expect(report.lost == 2 && dropped.count == 2)
    }

    @Test func droppedActivitiesWithFilesAreCountedLost() async throws {
        let (report, dropped) = try await run(.activityWithUploads, requests: 4, every: 2)
        #expect(report.ok == 4)
        #expect(report.lost == 2 && dropped.count == 2, "\(report.lostExamples)")
    }
}
