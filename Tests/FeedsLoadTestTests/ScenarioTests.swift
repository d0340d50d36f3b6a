import Testing

@testable import FeedsLoadTest

@Suite struct ScenarioTests {
    @Test func singleScenariosSendOneOperation() {
        let single: [(Scenario, Operation)] = [
            (.createActivity, .createActivity), (.readFeed, .readFeed), (.uploadFile, .uploadFile),
            (.activityWithUploads, .activityWithUploads),
        ]
        for (scenario, operation) in single {
            #expect((0..<50).allSatisfy { scenario.operation(forRequest: $0) == operation })
        }
    }

    @Test func mixedDealsHalfReadsAndEveryWriteInEachRunOfTen() {
        for start in [0, 3, 17] {
            var counts: [Operation: Int] = [:]
            for index in start..<(start + 10) { counts[Scenario.mixed.operation(forRequest: index), default: 0] += 1 }
            #expect(counts == [.readFeed: 5, .createActivity: 3, .uploadFile: 1, .activityWithUploads: 1])
        }
    }

    @Test func sizesParseWithBinaryUnits() {
        #expect(LoadTestOptions.byteCount("10240") == 10240)
        #expect(LoadTestOptions.byteCount("10KB") == 10240)
        #expect(LoadTestOptions.byteCount("100MB") == 100 << 20)
        #expect(LoadTestOptions.byteCount("1g") == 1 << 30)
        #expect(LoadTestOptions.byteCount("ten") == nil)
    }

    @Test func settingsThatCannotRunAreRefusedNamingTheFlag() {
        let base = LoadTestOptions(url: "http://127.0.0.1:1", apiKey: "k", apiSecret: "s", scenario: .mixed)
        var noUsers = base
        noUsers.users = 0
        var noTime = base
        noTime.limit = .duration(seconds: 0)
        var badURL = base
        badURL.url = "not a url"
        for (options, flag) in [(noUsers, "--users"), (noTime, "--duration"), (badURL, "--url")] {
            #expect {
                try options.validate()
            } throws: { ($0 as? LoadTestError)?.description.contains(flag) == true }
        }
        #expect(throws: Never.self) { try base.validate() }
    }
}
