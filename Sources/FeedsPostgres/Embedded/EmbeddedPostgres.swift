import FeedsCore
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// A private PostgreSQL cluster under a directory of ours, for when no `DATABASE_URL` is set.
///
/// Created with the system's `initdb` on first use, started with `pg_ctl` on a free loopback
/// port with password auth, reused (data kept) on the next start, stopped on shutdown. As root
/// the cluster runs as the `postgres` user, since PostgreSQL refuses to run as root.
public struct EmbeddedPostgres: Service {
    /// How to reach the cluster.
    public let configuration: PostgresClient.Configuration
    let layout: Layout
    let tools: Tools
    /// Whether this process started the server (and so stops it); false when it joined a running one.
    public let startedHere: Bool
    let logger: Logger

    /// Starts (or joins) the cluster under `directory`, on `port` or a free one; `durable: false`
    /// turns fsync off, for tests.
    public static func start(
        in directory: URL, durable: Bool = true, port chosen: Int? = nil, logger: Logger
    ) async throws -> EmbeddedPostgres {
        let tools = try Tools.locate()
        let layout = Layout(base: directory.standardizedFileURL)
        try FileManager.default.createDirectory(at: layout.run, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: layout.data.appendingPathComponent("PG_VERSION").path) {
            try await initialise(layout, tools: tools, durable: durable, logger: logger)
        }
        let password = try String(contentsOf: layout.password, encoding: .utf8)
        var port: Int
        var startedHere = false
        if let running = try await runningPort(layout, tools: tools) {
            port = running
            logger.info("joining the embedded PostgreSQL already running", metadata: ["port": "\(port)"])
        } else {
            port = try chosen ?? freeLoopbackPort()
            var settings = "-p \(port) -k \(layout.run.path) -c listen_addresses=127.0.0.1"
            if !durable { settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off" }
            try await tools.run([
                tools.pgCtl, "start", "-D", layout.data.path, "-l", layout.log.path, "-w", "-t", "60", "-s", "-o", settings,
            ])
            startedHere = true
            logger.info("started the embedded PostgreSQL", metadata: ["port": "\(port)", "data": "\(layout.data.path)"])
        }
        let configuration = PostgresClient.Configuration(
            host: "127.0.0.1", port: port, username: Self.superuser, password: password, database: "postgres", tls: .disable
        )
        return EmbeddedPostgres(
            configuration: configuration, layout: layout, tools: tools, startedHere: startedHere, logger: logger)
    }

    /// Waits for shutdown, then stops the cluster if this process started it.
    public func run() async throws {
        try? await gracefulShutdown()
        try await stop()
    }

    /// Stops the cluster: fast mode ends open sessions cleanly; immediate mode kills it as a
    /// crash would (committed data is safe when durable; the next start recovers).
    public func stop(immediately: Bool = false) async throws {
        guard startedHere else { return }
        try await tools.run([tools.pgCtl, "stop", "-D", layout.data.path, "-m", immediately ? "immediate" : "fast", "-w", "-s"])
        logger.info("stopped the embedded PostgreSQL")
    }

    static let superuser = "feeds"

    private static func initialise(_ layout: Layout, tools: Tools, durable: Bool, logger: Logger) async throws {
        let password = (0..<4).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "") }.joined()
        try Data(password.utf8).write(to: layout.password, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: layout.password.path)
        try await tools.handOver(layout.base)
        var arguments = [
            tools.initdb, "-D", layout.data.path, "-U", superuser, "--pwfile=\(layout.password.path)",
            "--auth=scram-sha-256", "--encoding=UTF8", "--locale=C", "--no-instructions",
        ]
        if !durable { arguments.append("--no-sync") }
        logger.info("creating the embedded PostgreSQL cluster", metadata: ["data": "\(layout.data.path)"])
        try await tools.run(arguments)
    }

    /// The port of a server already running on this data directory, if any.
    private static func runningPort(_ layout: Layout, tools: Tools) async throws -> Int? {
        let status = try await tools.run([tools.pgCtl, "status", "-D", layout.data.path], allowFailure: true)
        guard status.status == 0,
            let pidFile = try? String(contentsOf: layout.data.appendingPathComponent("postmaster.pid"), encoding: .utf8)
        else { return nil }
        let lines = pidFile.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count > 3 ? Int(lines[3].trimmingCharacters(in: .whitespaces)) : nil
    }
}

extension EmbeddedPostgres {
    /// Where the cluster keeps its parts under the base directory.
    struct Layout: Sendable {
        let base: URL
        var data: URL { base.appendingPathComponent("data") }
        var run: URL { base.appendingPathComponent("run") }
        var log: URL { base.appendingPathComponent("postgres.log") }
        var password: URL { base.appendingPathComponent("password") }
    }

    /// The PostgreSQL programs, and how to run them as a user PostgreSQL accepts.
    struct Tools: Sendable {
        let initdb: String
        let pgCtl: String
        /// `runuser -u postgres --` when running as root.
        let prefix: [String]

        static func locate() throws -> Tools {
            // Debian keeps initdb and pg_ctl out of PATH, under /usr/lib/postgresql/VERSION/bin.
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
            let directories = versions.compactMap(Int.init).sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
            guard let initdb = Subprocess.find("initdb", in: directories), let pgCtl = Subprocess.find("pg_ctl", in: directories)
            else { throw EmbeddedPostgresError.notInstalled }
            var prefix: [String] = []
            if geteuid() == 0 {
                guard let runuser = Subprocess.find("runuser", in: ["/usr/sbin", "/sbin"]) else {
                    throw EmbeddedPostgresError.cannotDropRoot("runuser is missing")
                }
                prefix = [runuser, "-u", "postgres", "--"]
            }
            return Tools(initdb: initdb, pgCtl: pgCtl, prefix: prefix)
        }

        @discardableResult
        func run(_ arguments: [String], allowFailure: Bool = false) async throws -> (status: Int32, output: String) {
            try await Subprocess.run(prefix + arguments, allowFailure: allowFailure)
        }

        /// As root, gives the directory to the postgres user and checks that user can reach it.
        func handOver(_ directory: URL) async throws {
            guard !prefix.isEmpty else { return }
            try await Subprocess.run(["/bin/chown", "-R", "postgres:postgres", directory.path])
            let reach = try await run(["/usr/bin/test", "-w", directory.path], allowFailure: true)
            guard reach.status == 0 else {
                throw EmbeddedPostgresError.cannotDropRoot(
                    "the postgres user cannot reach \(directory.path); choose a FEEDS_DATA_DIR it can reach, or set DATABASE_URL"
                )
            }
        }
    }
}

/// Why the embedded cluster could not start.
public enum EmbeddedPostgresError: Error, CustomStringConvertible {
    case notInstalled
    case cannotDropRoot(String)
    case noFreePort

    public var description: String {
        switch self {
        case .notInstalled:
            "PostgreSQL is not installed: install it (apt-get install postgresql) or set DATABASE_URL to a running server"
        case .cannotDropRoot(let reason):
            "cannot run the embedded PostgreSQL as the postgres user: \(reason)"
        case .noFreePort:
            "no free loopback port for the embedded PostgreSQL"
        }
    }
}
