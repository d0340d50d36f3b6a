import FeedsPostgres
import FeedsUploads
import Foundation
import Logging
import PostgresNIO

/// A fresh database per test on the PostgreSQL that `make test` starts (`FEEDS_TEST_DATABASE_URL`).
/// Without that server the tests fail with a message saying how to run them; they never skip.
public enum TestDatabase {
    public struct Unavailable: Error, CustomStringConvertible {
        public var variable = "FEEDS_TEST_DATABASE_URL"
        public init(variable: String = "FEEDS_TEST_DATABASE_URL") { self.variable = variable }
        public var description: String {
            "\(variable) is not set: run the tests with `make test`, which starts a private PostgreSQL"
        }
    }

    public static let logger: Logger = {
        var logger = Logger(label: "feeds-test")
        logger.logLevel =
            ProcessInfo.processInfo.environment["FEEDS_TEST_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .error
        return logger
    }()

    /// How many test databases (and so test servers) exist at once. Swift Testing starts every
    /// test together; a hundred servers opening pools and creating databases at the same moment
    /// left PostgreSQL's connection setup so slow on two cores that the pools' circuit breakers
    /// tripped and the suite hung.
    static let databasesAtOnce = AsyncSemaphore(permits: 12)

    /// The server's configuration, for the maintenance database.
    /// `cluster` names the variable with its URL: the replicated pair's primary is
    /// `FEEDS_TEST_REPLICATED_DATABASE_URL` (scripts/with-test-replica.sh).
    public static func serverConfiguration(cluster: String = "FEEDS_TEST_DATABASE_URL") throws -> PostgresClient.Configuration {
        guard let url = ProcessInfo.processInfo.environment[cluster], !url.isEmpty else {
            throw Unavailable(variable: cluster)
        }
        var configuration = try DatabaseURL.configuration(url)
        configuration.options.maximumConnections = 2
        // A hang guard, not a deadline: with a hundred tests starting at once on two cores, a
        // connection took longer than the default 10 s to open, and every test after it failed.
        configuration.options.connectTimeout = .seconds(120)
        return configuration
    }

    /// Creates a database, runs `body` with its configuration and a running client, drops it.
    /// `migrated` starts it as a copy of the migrated template (`MigratedTemplate`), else empty.
    public static func with<T: Sendable>(
        migrated: Bool = false, cluster: String = "FEEDS_TEST_DATABASE_URL",
        _ body: @Sendable (PostgresClient.Configuration, PostgresClient) async throws -> T
    ) async throws -> T {
        do {
            return try await database(migrated: migrated, cluster: cluster, body)
        } catch let error as PSQLError {
            throw DatabaseFailure(String(reflecting: error))  // what PostgreSQL said, not the generic description
        }
    }

    private static func database<T: Sendable>(
        migrated: Bool, cluster: String, _ body: @Sendable (PostgresClient.Configuration, PostgresClient) async throws -> T
    ) async throws -> T {
        let admin = try serverConfiguration(cluster: cluster)
        let template = migrated ? try await MigratedTemplate.shared.name(admin) : nil
        try await databasesAtOnce.acquire()
        defer { databasesAtOnce.release() }
        let name = "feeds_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        try await withClient(admin) { client in
            let copy = template.map { " TEMPLATE \($0)" } ?? ""
            // A copy fails while anyone is connected to the template: a moment later it is free.
            for attempt in 1...20 {
                do {
                    _ = try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)\(copy)"), logger: logger)
                    return
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55006" && attempt < 20 {
                    try await Task.sleep(for: .milliseconds(250))
                }
            }
        }
        let configuration = {
            var configuration = admin
            configuration.database = name
            // Dozens of tests run at once, each with a server pool and a checking client: keep
            // every pool small so that together they stay under the cluster's connection limit.
            configuration.options.maximumConnections = 4
            return configuration
        }()
        let result: Result<T, any Error>
        do {
            result = .success(try await withClient(configuration) { try await body(configuration, $0) })
        } catch {
            result = .failure(error)
        }
        try await withClient(admin) { client in
            _ = try await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: logger)
        }
        return try result.get()
    }

    /// The replicated pair's replica (`FEEDS_TEST_REPLICA_DATABASE_URL`), as a URL of `database`'s copy there.
    public static func replicaURL(of database: PostgresClient.Configuration) throws -> String {
        guard let url = ProcessInfo.processInfo.environment["FEEDS_TEST_REPLICA_DATABASE_URL"],
            let slash = url.lastIndex(of: "/")
        else { throw Unavailable(variable: "FEEDS_TEST_REPLICA_DATABASE_URL") }
        return url[...slash] + (database.database ?? "postgres")
    }

    /// Runs `body` with a client whose background work runs meanwhile.
    public static func withClient<T: Sendable>(
        _ configuration: PostgresClient.Configuration, _ body: @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }
}

/// A PostgreSQL error with what the server said, for a test's report.
public struct DatabaseFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
