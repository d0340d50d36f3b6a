import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs commands without blocking a thread of the concurrency pool: the embedded cluster, ffmpeg
/// for uploaded media, and the tests (`feeds` as a second node or a CLI, curl).
///
/// posix_spawn and waitpid rather than Foundation's `Process`: `pg_ctl start` leaves a daemon
/// behind that inherits the descriptors `Process` watches for the child's end, so `Process`
/// would wait for the database server to exit; and `Process` watches those descriptors with
/// `select`, which corrupts memory once a process holds descriptors past 1024 (a test process
/// running many servers at once does).
package enum Subprocess {
    package struct Failure: Error, CustomStringConvertible {
        let command: String
        let status: Int32
        let output: String
        package var description: String { "\(command) exited with \(status): \(output)" }
    }

    /// Runs `arguments[0]` with the rest, returning its combined output (kept in a file, which
    /// nothing can hold open against us); non-zero exit throws unless `allowFailure`.
    @discardableResult
    package static func run(_ arguments: [String], allowFailure: Bool = false) async throws -> (status: Int32, output: String) {
        let result = try await capture(arguments, separateErrors: false)
        if result.status != 0, !allowFailure {
            throw Failure(command: arguments.joined(separator: " "), status: result.status, output: result.stdout)
        }
        return (result.status, result.stdout)
    }

    /// Runs `arguments[0]` with the rest to its end, with `environment` added to this process's,
    /// returning its exit status, standard output and standard error (combined into standard
    /// output unless `separateErrors`).
    package static func capture(
        _ arguments: [String], environment: [String: String] = [:], separateErrors: Bool = true
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-\(UUID().uuidString)").path
        let (out, err) = (base + ".out", base + ".err")
        defer {
            unlink(out)
            unlink(err)
        }
        let pid = try spawn(arguments, environment: environment, output: out, errors: separateErrors ? err : nil)
        let status = await exitStatus(of: pid)
        return (
            status, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            separateErrors ? (try? String(contentsOfFile: err, encoding: .utf8)) ?? "" : ""
        )
    }

    /// Runs `arguments[0]` with the rest to its end or until `limit` has passed, when it is killed
    /// (`timedOut`); standard output and error are kept apart, each cut at `outputCap` bytes.
    package static func capture(
        _ arguments: [String], limit: Duration, outputCap: Int = 1 << 20
    ) async throws -> (status: Int32, timedOut: Bool, stdout: String, stderr: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-\(UUID().uuidString)").path
        let (out, err) = (base + ".out", base + ".err")
        defer {
            unlink(out)
            unlink(err)
        }
        let pid = try spawn(arguments, output: out, errors: err)
        // Killed only while it has not been reaped, so that its id cannot be another process's.
        let state = Mutex((ended: false, killed: false))
        let timer = Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            state.withLock { state in
                guard !state.ended else { return }
                state.killed = kill(pid, SIGKILL) == 0
            }
        }
        let status = await exitStatus(of: pid) { state.withLock { $0.ended = true } }
        timer.cancel()
        func read(_ path: String) -> String {
            guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
            defer { try? handle.close() }
            return String(decoding: (try? handle.read(upToCount: outputCap)) ?? Data(), as: UTF8.self)
        }
        return (status, state.withLock { $0.killed }, read(out), read(err))
    }

    /// Starts `arguments[0]` with the rest, its output to `output` (standard error too, unless
    /// `errors` names a file of its own), and returns its process id.
    package static func spawn(
        _ arguments: [String], environment: [String: String] = [:], output: String = "/dev/null", errors: String? = nil
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let errors {
            posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // Nothing else of ours: a child (a database server, a second node, ffmpeg) that held a
        // listening socket of this process would keep its port taken after this process closed it.
        _ = closeFrom?(&actions, 3)

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { strdup("\($0.key)=\($0.value)") }
        let envp = variables + [nil]
        defer { variables.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        guard result == 0 else {
            throw Failure(command: arguments.joined(separator: " "), status: -1, output: String(cString: strerror(result)))
        }
        return pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 on), which Swift's Glibc module
    /// does not show; nil where the C library has none.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Waits for `pid` to end, on a thread of its own, and returns its exit status (128 + the
    /// signal when a signal ended it).
    /// `ended` runs once it has ended, before it is reaped.
    package static func exitStatus(of pid: pid_t, ended: @escaping @Sendable () -> Void = {}) async -> Int32 {
        let status = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
                ended()
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                continuation.resume(returning: status)
            }
        }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// The first executable named `name` in `directories`, then on `PATH`.
    package static func find(_ name: String, in directories: [String] = []) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in directories + path.split(separator: ":").map(String.init) {
            let candidate = (directory as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
