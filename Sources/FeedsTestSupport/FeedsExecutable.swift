import AsyncHTTPClient
import Foundation

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

    /// Runs `feeds arguments…` to its end. Output goes to files and the exit is awaited through
    /// the termination handler, so that no thread of the shared pool blocks (the server under
    /// test runs on the same pool).
    public static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Output {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("feeds-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (out, err) = (directory.appendingPathComponent("stdout"), directory.appendingPathComponent("stderr"))
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = try url()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let status = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return Output(
            status: status, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }
}

/// `feeds serve` in a process of its own, on the given database, until `stop()`.
public final class FeedsNode {
    public let baseURL: String
    private let process: Process
    private let dataDirectory: URL

    /// Starts a node and waits until `/readyz` answers 200 (at most 60 s).
    public init(databaseURL: String, apiKey: String, apiSecret: String, port: Int) async throws {
        baseURL = "http://127.0.0.1:\(port)"
        dataDirectory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("feeds-node-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = try FeedsExecutable.url()
        process.arguments = ["serve"]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "DATABASE_URL": databaseURL, "FEEDS_API_KEY": apiKey, "FEEDS_API_SECRET": apiSecret,
            "FEEDS_PORT": String(port), "FEEDS_HOST": "127.0.0.1", "FEEDS_DATA_DIR": dataDirectory.path,
            "FEEDS_LOG_LEVEL": ProcessInfo.processInfo.environment["FEEDS_TEST_LOG_LEVEL"] ?? "error",
        ]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        self.process = process
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw NodeExited(status: process.terminationStatus) }
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
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    public struct NodeExited: Error, CustomStringConvertible {
        public let status: Int32
        public var description: String {
            status < 0 ? "the feeds node did not get ready in 60 s" : "the feeds node exited (\(status))"
        }
    }
}
