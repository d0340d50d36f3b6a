import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a command to completion without blocking a thread of the concurrency pool.
///
/// posix_spawn and waitpid rather than Foundation's `Process`: `pg_ctl start` leaves a daemon
/// behind that inherits the descriptors `Process` watches for the child's end, so `Process`
/// would wait for the database server to exit.
enum Subprocess {
    struct Failure: Error, CustomStringConvertible {
        let command: String
        let status: Int32
        let output: String
        var description: String { "\(command) exited with \(status): \(output)" }
    }

    /// Runs `arguments[0]` with the rest, returning its combined output (kept in a file, which
    /// nothing can hold open against us); non-zero exit throws unless `allowFailure`.
    @discardableResult
    static func run(_ arguments: [String], allowFailure: Bool = false) async throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        let pid = try spawn(arguments, outputPath: outputPath)
        let status = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                continuation.resume(returning: status)
            }
        }
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        if exitCode != 0, !allowFailure {
            throw Failure(command: arguments.joined(separator: " "), status: exitCode, output: output)
        }
        return (exitCode, output)
    }

    private static func spawn(_ arguments: [String], outputPath: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard result == 0 else {
            throw Failure(command: arguments.joined(separator: " "), status: -1, output: String(cString: strerror(result)))
        }
        return pid
    }

    /// The first executable named `name` in `directories`, then on `PATH`.
    static func find(_ name: String, in directories: [String] = []) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in directories + path.split(separator: ":").map(String.init) {
            let candidate = (directory as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
