import AsyncHTTPClient
import FeedsCore
import FeedsPostgres
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The built `feeds` executable, run as its own process: a second server node, or a command
/// such as `feeds app set`. `swift build --build-tests` builds it beside the test bundle.
public enum FeedsExecutable {
    public struct Missing: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "the feeds executable is not at \(path): build it with `swift build --build-tests`" }
    }

    /// Where the executable is: beside the test bundle (`.build/debug/feedsPackageTests.xctest`).
    public static func url() throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let url = bundle.deletingLastPathComponent().appendingPathComponent("feeds")
        guard FileManager.default.isExecutableFile(atPath: url.path) else { throw Missing(path: url.path) }
        return url
    }

    /// What a finished command printed, and how it ended.
    public struct Output: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Runs `feeds arguments…` to its end (posix_spawn: see `Subprocess`); the exit is awaited on
    /// a thread of its own, so that no thread of the shared pool blocks (the server under test
    /// runs on the same pool).
    public static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Output {
        let result = try await Subprocess.capture([try url().path] + arguments, environment: environment)
        return Output(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}

/// `feeds serve` in a process of its own, on the given database, until `stop()`.
public final class FeedsNode: Sendable {
    public let baseURL: String
    private let pid: pid_t
    public let dataDirectory: URL
    /// The node's exit status once it has ended.
    private let exit = ExitStatus()

    /// Starts a node and waits until `/readyz` answers 200 (a hang guard of 60 s). A node started
    /// on the `dataDirectory` of one that crashed finds what it left.
    public init(
        databaseURL: String, apiKey: String, apiSecret: String, port: Int, environment: [String: String] = [:],
        dataDirectory: URL? = nil
    ) async throws {
        baseURL = "http://127.0.0.1:\(port)"
        self.dataDirectory =
            dataDirectory
            ?? URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("feeds-node-\(UUID().uuidString)")
        pid = try Subprocess.spawn(
            [try FeedsExecutable.url().path, "serve"],
            environment: [
                "DATABASE_URL": databaseURL, "FEEDS_API_KEY": apiKey, "FEEDS_API_SECRET": apiSecret,
                "FEEDS_PORT": String(port), "FEEDS_HOST": "127.0.0.1", "FEEDS_DATA_DIR": self.dataDirectory.path,
                // Any free port for the WebSocket, unless a test names one: port + 1 may be taken.
                "FEEDS_WS_PORT": "0",
                "FEEDS_LOG_LEVEL": ProcessInfo.processInfo.environment["FEEDS_TEST_LOG_LEVEL"] ?? "error",
            ].merging(environment) { $1 })
        let (pid, exit) = (pid, exit)
        Task.detached {
            let status = await Subprocess.exitStatus(of: pid)
            exit.value.withLock { $0 = status }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let status = exit.value.withLock({ $0 }) { throw NodeExited(status: status) }
            let request = HTTPClientRequest(url: baseURL + "/readyz")
            if let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(2)), response.status == .ok {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        stop()
        throw NodeExited(status: -1)
    }

    /// Stops the node (SIGTERM, a graceful shutdown) and removes its files.
    public func stop() {
        if exit.value.withLock({ $0 }) == nil { kill(pid, SIGTERM) }
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// Sends SIGTERM and waits until the process has exited (a hang guard of two minutes).
    public func terminate() async throws {
        kill(pid, SIGTERM)
        let exit = exit
        try await eventually("the node to exit after SIGTERM") { exit.value.withLock { $0 } != nil }
    }

    /// Kills the node as a crash would (SIGKILL), leaving its files, and waits until it is gone.
    public func crash() async throws {
        kill(pid, SIGKILL)
        let exit = exit
        try await eventually("the killed node to exit") { exit.value.withLock { $0 } != nil }
    }

    public struct NodeExited: Error, CustomStringConvertible {
        public let status: Int32
        public var description: String {
            status < 0 ? "the feeds node did not get ready in 60 s" : "the feeds node exited (\(status))"
        }
    }
}

/// A process's exit status, set once it has ended.
private final class ExitStatus: Sendable {
    let value = Mutex<Int32?>(nil)
}
