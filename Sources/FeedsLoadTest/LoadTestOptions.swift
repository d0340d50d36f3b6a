import Foundation

/// What one `feeds loadtest` run does: where, what, how hard and for how long.
public struct LoadTestOptions: Sendable {
    /// When the measured phase ends.
    public enum Limit: Sendable, Equatable {
        case duration(seconds: Double)
        case requests(Int)
    }

    /// The server's base URL, without `/api/v2`.
    public var url: String
    public var apiKey: String
    public var apiSecret: String
    public var scenario: Scenario
    /// Requests in flight at once (also the size of the connection pool).
    public var concurrency: Int
    public var limit: Limit
    /// Distinct user ids; each has a token minted from the secret.
    public var users: Int
    /// Bytes in each uploaded file.
    public var fileSize: Int
    /// Seconds of load before measuring starts; their writes are still checked.
    public var warmup: Double
    /// Prefix of the user ids (`<prefix>-<n>`), so that feeds are known to other tools (pgbench).
    public var userPrefix: String
    /// Read every acknowledged write back at the end.
    public var checkLosses: Bool
    /// Seconds before a request counts as failed.
    public var timeout: Double
    /// Seconds a timeline run's read-back waits for fan-out before a post missing from a
    /// follower's timeline counts as lost.
    public var fanoutPatience: Double = 60

    public init(
        url: String, apiKey: String, apiSecret: String, scenario: Scenario, concurrency: Int = 8,
        limit: Limit = .duration(seconds: 10), users: Int = 100, fileSize: Int = 10 * 1024, warmup: Double = 0,
        userPrefix: String = "loadtest", checkLosses: Bool = true, timeout: Double = 120
    ) {
        self.url = url.hasSuffix("/") ? String(url.dropLast()) : url
        self.apiKey = apiKey
        self.apiSecret = apiSecret
        self.scenario = scenario
        self.concurrency = concurrency
        self.limit = limit
        self.users = users
        self.fileSize = fileSize
        self.warmup = warmup
        self.userPrefix = userPrefix
        self.checkLosses = checkLosses
        self.timeout = timeout
    }

    /// The id of user number `index`.
    public func userID(_ index: Int) -> String { "\(userPrefix)-\(index)" }

    /// Refuses settings that cannot run, with a message naming the flag.
    public func validate() throws(LoadTestError) {
        guard URL(string: url)?.host != nil else { throw LoadTestError("--url \(url) is not an http URL") }
        guard !apiKey.isEmpty else { throw LoadTestError("--api-key is required") }
        guard concurrency >= 1 else { throw LoadTestError("--concurrency must be at least 1") }
        guard users >= 1 else { throw LoadTestError("--users must be at least 1") }
        guard scenario != .timeline || users >= 2 else { throw LoadTestError("--scenario timeline needs --users of 2 or more") }
        guard fileSize >= 1 else { throw LoadTestError("--file-size must be at least 1 byte") }
        guard warmup >= 0 else { throw LoadTestError("--warmup must not be negative") }
        switch limit {
        case .duration(let seconds) where seconds <= 0: throw LoadTestError("--duration must be positive")
        case .requests(let count) where count < 1: throw LoadTestError("--requests must be at least 1")
        default: break
        }
    }

    /// Parses sizes like `10240`, `10KB`, `100MB` (powers of 1024).
    public static func byteCount(_ text: String) -> Int? {
        let upper = text.uppercased().trimmingCharacters(in: .whitespaces)
        let units: [(String, Int)] = [
            ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10), ("B", 1),
        ]
        for (suffix, factor) in units where upper.hasSuffix(suffix) {
            return Int(upper.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)).map { $0 * factor }
        }
        return Int(upper)
    }
}

/// A load test that cannot start or finish, with a message for the operator.
public struct LoadTestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
