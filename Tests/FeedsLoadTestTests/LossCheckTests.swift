import FeedsLoadTest
import FeedsTestSupport
import Foundation
import Testing

/// The loss check against a server that acknowledges writes and then loses them (`LossyProxy`).
@Suite struct LossCheckTests {
    func options(_ url: String, _ scenario: Scenario, requests: Int) -> LoadTestOptions {
        LoadTestOptions(
            url: url, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret, scenario: scenario, concurrency: 3,
            limit: .requests(requests), users: 2, fileSize: 2000, userPrefix: "loss-\(UUID().uuidString.prefix(8))"
        )
    }

    @Test func droppedActivitiesAreCountedLostAndNamed() async throws {
        try await TestServer.run { server in
            try await LossyProxy.run(in: server, every: 5) { proxy in
                let report = try await LoadRunner(
                    options: options(proxy.baseURL, .createActivity, requests: 20), showProgress: false
                ).run()
                #expect(report.ok == 20 && report.errors == 0)
                #expect(proxy.faultedWrites.count == 4)
                #expect(report.lost == 4)
                #expect(report.checked == 20)
                #expect(report.failed)
                for id in proxy.faultedWrites {
                    #expect(report.lostExamples.contains { $0.contains(id) && $0.hasSuffix("missing") }, "\(id)")
                }
            }
        }
    }

    @Test func alteredActivitiesAreCountedLost() async throws {
        try await TestServer.run { server in
            try await LossyProxy.run(in: server, every: 4, fault: .alter) { proxy in
                let report = try await LoadRunner(
                    options: options(proxy.baseURL, .createActivity, requests: 12), showProgress: false
                ).run()
                #expect(report.lost == 3 && proxy.faultedWrites.count == 3)
                #expect(report.lostExamples.allSatisfy { $0.hasSuffix("text differs") })
            }
        }
    }

    @Test func droppedUploadsAreCountedLost() async throws {
        try await TestServer.run { server in
            try await LossyProxy.run(in: server, every: 3) { proxy in
                let report = try await LoadRunner(options: options(proxy.baseURL, .uploadFile, requests: 6), showProgress: false)
                    .run()
                #expect(report.ok == 6)
                #expect(report.lost == 2 && proxy.faultedWrites.count == 2)
            }
        }
    }

    @Test func droppedActivitiesWithFilesAreCountedLost() async throws {
        try await TestServer.run { server in
            try await LossyProxy.run(in: server, every: 2) { proxy in
                let report = try await LoadRunner(
                    options: options(proxy.baseURL, .activityWithUploads, requests: 4), showProgress: false
                ).run()
                #expect(report.ok == 4)
                #expect(report.lost == 2, "\(report.lostExamples)")
            }
        }
    }
}
