import ArgumentParser
import FeedsLoadTest
import Foundation

/// `feeds loadtest`: load on a running server, a report, and a read-back of every acknowledged write.
struct LoadTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loadtest",
        abstract: "Load-test a running server, then read back every write it acknowledged.",
        discussion: "Exits non-zero when any request failed or any acknowledged write was lost."
    )

    @Option(help: "The server's base URL.") var url = "http://127.0.0.1:3030"
    @Option(name: .customLong("api-key"), help: "The app's API key (FEEDS_API_KEY).") var apiKey: String?
    @Option(name: .customLong("api-secret"), help: "The app's API secret, to mint user tokens (FEEDS_API_SECRET).")
    var apiSecret: String?
    @Option(help: "create-activity, read-feed, upload-file, activity-with-uploads, mixed, timeline, realtime or webhooks.")
    var scenario: Scenario = .createActivity
    @Option(help: "Requests in flight at once.") var concurrency = 8
    @Option(help: "Seconds to measure (default 10 unless --requests is given).") var duration: Double?
    @Option(help: "Requests to measure, instead of a duration.") var requests: Int?
    @Option(help: "Distinct user ids (<prefix>-0 …), each with its own token.") var users = 100
    @Option(name: .customLong("user-prefix"), help: "Prefix of the user ids.") var userPrefix = "loadtest"
    @Option(name: .customLong("file-size"), help: "Bytes per uploaded file: 10240, 10KB, 100MB.") var fileSize = "10KB"
    @Option(help: "Seconds of load before measuring.") var warmup: Double = 0
    @Option(help: "Write the report as JSON to this path.") var json: String?
    @Option(name: .customLong("ws-url"), help: "realtime: the WebSocket URL (default: the server's, port 3030 → 8800, else + 1).")
    var wsURL: String?
    @Option(help: "realtime: sockets watching the author's feed.") var watchers = 100
    @Option(help: "realtime, webhooks: posts per second (realtime: 0 holds the sockets only).") var rate: Double = 100
    @Option(help: "webhooks: activities a request (over 1: UpsertActivities batches).") var batch = 1
    @Flag(name: .customLong("no-progress"), help: "Do not print the progress line.") var noProgress = false

    func validate() throws {
        if duration != nil, requests != nil { throw ValidationError("give --duration or --requests, not both") }
        if LoadTestOptions.byteCount(fileSize) == nil { throw ValidationError("--file-size \(fileSize) is not a size") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let key = apiKey ?? environment["FEEDS_API_KEY"], let secret = apiSecret ?? environment["FEEDS_API_SECRET"] else {
            throw ValidationError("give --api-key and --api-secret (or FEEDS_API_KEY and FEEDS_API_SECRET)")
        }
        if scenario == .realtime { return try await runRealtime(key: key, secret: secret) }
        if scenario == .webhooks { return try await runWebhooks(key: key, secret: secret) }
        let options = LoadTestOptions(
            url: url, apiKey: key, apiSecret: secret, scenario: scenario, concurrency: concurrency,
            limit: requests.map { .requests($0) } ?? .duration(seconds: duration ?? 10), users: users,
            fileSize: LoadTestOptions.byteCount(fileSize) ?? 0, warmup: warmup, userPrefix: userPrefix
        )
        let report: LoadReport
        do {
            report = try await LoadRunner(options: options, showProgress: !noProgress).run()
        } catch let error as LoadTestError {
            FileHandle.standardError.write(Data("feeds loadtest: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
        print(report.table)
        if let json { try report.write(to: json) }
        if report.failed { throw ExitCode(1) }
    }

    /// `--scenario realtime`: sockets and posts instead of requests (`RealtimeRun`).
    private func runRealtime(key: String, secret: String) async throws {
        guard let base = URLComponents(string: url), let host = base.host else {
            throw ValidationError("--url \(url) is not a URL")
        }
        let port = base.port ?? 80
        let webSocketURL = wsURL ?? "ws://\(host):\(port == 3030 ? 8800 : port + 1)/api/v2/connect"
        let run = RealtimeRun(
            options: .init(
                url: url, webSocketURL: webSocketURL, apiKey: key, apiSecret: secret, watchers: watchers, rate: rate,
                seconds: duration ?? 10, userPrefix: userPrefix == "loadtest" ? "realtime" : userPrefix))
        try await finish { try await run.run() }
    }

    /// Runs a scenario of its own (`run`; one that cannot start exits 2), prints its report, writes
    /// it as JSON when asked, and fails the command when the run failed.
    private func finish<Report: ScenarioReport>(_ run: () async throws -> Report) async throws {
        let report: Report
        do {
            report = try await run()
        } catch let error as LoadTestError {
            FileHandle.standardError.write(Data("feeds loadtest: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
        print(report.table)
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(report).write(to: URL(fileURLWithPath: json), options: .atomic)
        }
        if report.failed { throw ExitCode(1) }
    }

    /// `--scenario webhooks`: posts at `rate`, each event timed to a receiver (`WebhookRun`).
    private func runWebhooks(key: String, secret: String) async throws {
        var options = WebhookRun.Options(
            url: url, apiKey: key, apiSecret: secret, rate: rate, seconds: duration ?? 10, users: users,
            userPrefix: userPrefix == "loadtest" ? "webhooks" : userPrefix)
        options.batch = batch
        let run = WebhookRun(options: options)
        try await finish { try await run.run() }
    }
}

extension Scenario: ExpressibleByArgument {}
