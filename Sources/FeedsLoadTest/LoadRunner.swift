import AsyncHTTPClient
import Foundation
import NIOCore

/// Runs a load test: mints the users' tokens, seeds the feeds a read scenario reads (or the follow
/// graph a timeline run reads), warms up, drives `concurrency` requests at once until the limit,
/// then reads every acknowledged write back.
public struct LoadRunner: Sendable {
    public let options: LoadTestOptions
    /// Prints the live progress line (off in tests).
    public let showProgress: Bool

    /// Activities each user's feed holds before a read scenario starts: one full page.
    static let seedPerUser = 25

    public init(options: LoadTestOptions, showProgress: Bool = true) {
        self.options = options
        self.showProgress = showProgress
    }

    public func run() async throws -> LoadReport {
        try options.validate()
        let tokens = try await TokenMinter(apiSecret: options.apiSecret).tokens(for: (0..<options.users).map(options.userID))
        let workload = Workload(options: options, tokens: tokens, runID: Self.runID())
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                timeout: .init(connect: .seconds(10)),
                connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: options.concurrency)
            )
        )
        do {
            let report = try await run(workload, client: client)
            try await client.shutdown()
            return report
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func run(_ workload: Workload, client: HTTPClient) async throws -> LoadReport {
        let driver = Driver(workload: workload, client: client, timeout: .seconds(Int64(options.timeout)))
        let acknowledged = Shared<[Acknowledged]>([])
        if options.scenario.readsFeeds {
            // One page per user, written before the clock starts; these writes are checked too.
            let seeding = LatencyRecorder()
            await driver.drive(
                concurrency: options.concurrency, limit: .requests(options.users * Self.seedPerUser), scenario: .createActivity,
                recorder: seeding, acknowledged: acknowledged)
            guard seeding.snapshot.errors == 0 else {
                throw LoadTestError(
                    "seeding the feeds failed: \(seeding.snapshot.errorsByStatus) (is the server up, are the key and secret right?)"
                )
            }
        }
        let graph = options.scenario == .timeline ? FollowGraph(users: options.users) : nil
        try await graph?.build(workload, client: client, concurrency: options.concurrency, timeout: driver.timeout)
        if options.warmup > 0 {
            await driver.drive(
                concurrency: options.concurrency, limit: .duration(seconds: options.warmup), scenario: options.scenario,
                recorder: LatencyRecorder(), acknowledged: acknowledged)
        }
        let recorder = LatencyRecorder()
        let start = ContinuousClock.now
        let elapsed = await withTaskGroup(of: Duration?.self) { group in
            if showProgress {
                group.addTask {
                    await ProgressLine(recorder: recorder, start: start).run(); return nil
                }
            }
            await driver.drive(
                concurrency: options.concurrency, limit: options.limit, scenario: options.scenario, recorder: recorder,
                acknowledged: acknowledged)
            let elapsed = ContinuousClock.now - start
            group.cancelAll()
            await group.waitForAll()
            return elapsed
        }
        let writes = acknowledged.withLock { $0 }
        let loss =
            options.checkLosses
            ? await LossCheck(workload: workload, client: client, concurrency: options.concurrency, timeout: driver.timeout)
                .run(writes)
            : LossCheck.Result()
        var timelines: TimelineCheck.Result?
        if let graph, options.checkLosses {
            timelines = await TimelineCheck(
                workload: workload, client: client, graph: graph, concurrency: options.concurrency, timeout: driver.timeout,
                patience: .seconds(options.fanoutPatience)
            ).run(writes)
        }
        return LoadReport(options: options, measured: recorder.snapshot, elapsed: elapsed, loss: loss, timelines: timelines)
    }

    /// Eight hex digits that tell this run's writes from any other's.
    static func runID() -> String {
        String(UInt32.random(in: .min ... .max), radix: 16).leftPadding(to: 8)
    }
}

/// Sends the requests of one phase.
struct Driver: Sendable {
    let workload: Workload
    let client: HTTPClient
    let timeout: TimeAmount

    /// Runs `concurrency` workers until the limit: a request count, or a time.
    func drive(
        concurrency: Int, limit: LoadTestOptions.Limit, scenario: Scenario, recorder: LatencyRecorder,
        acknowledged: Shared<[Acknowledged]>
    ) async {
        let counter = Counter()
        let deadline: ContinuousClock.Instant? =
            if case .duration(let seconds) = limit { .now + .milliseconds(Int64(seconds * 1000)) } else { nil }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    while true {
                        let index = counter.next()
                        if case .requests(let count) = limit, index >= count { return }
                        if let deadline, ContinuousClock.now >= deadline { return }
                        let operation = scenario.operation(forRequest: index)
                        if let write = await send(operation, index: index, recorder: recorder) {
                            acknowledged.withLock { $0.append(write) }
                        }
                    }
                }
            }
        }
    }

    /// Sends one request, records its outcome, and returns the write it acknowledged.
    private func send(_ operation: Operation, index: Int, recorder: LatencyRecorder) async -> Acknowledged? {
        let prepared = workload.prepare(operation, index: index)
        let start = ContinuousClock.now
        do {
            let response = try await client.execute(prepared.request, timeout: timeout)
            let body = try await response.body.collect(upTo: 64 << 20)
            let latency = ContinuousClock.now - start
            let status = Int(response.status.code)
            guard (200..<300).contains(status) else {
                recorder.record(operation, outcome: .status(status), latency: latency)
                return nil
            }
            let (write, valid) = Workload.acknowledgement(prepared.expectation, reply: body)
            // A 2xx whose body does not say what was written cannot be checked: it is an error.
            recorder.record(
                operation, outcome: valid ? .status(status) : .badReply(status), latency: latency,
                uploadedBytes: prepared.uploadBytes)
            return write
        } catch {
            recorder.record(operation, outcome: .transportError, latency: ContinuousClock.now - start)
            return nil
        }
    }
}

extension String {
    fileprivate func leftPadding(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
