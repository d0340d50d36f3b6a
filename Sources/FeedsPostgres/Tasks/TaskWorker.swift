import FeedsCore
import Foundation
import Logging
import ServiceLifecycle

/// Runs one kind of queued task in steps.
public protocol TaskHandler: Sendable {
    /// Does the next bounded part of `task` (its input decoded from `task.input`), noting its
    /// progress in `task.result`; true once nothing is left. A step is its own transaction or
    /// several, each safe to run again: a worker that dies mid-step leaves the task to the next.
    func step(_ task: inout PostgresTasks.Claimed, logger: Logger) async throws -> Bool

    /// The most one step may take, when more than the worker's own `stepDeadline` (an export
    /// written in one step); the task's hold is made that much longer.
    var stepDeadline: Duration? { get }
}

extension TaskHandler {
    public var stepDeadline: Duration? { nil }
}

/// Claims queued tasks (`PostgresTasks`) one at a time and runs them to the end, saving the
/// progress after each step; a step that fails is tried again after a wait, up to `attempts`
/// times, and then the task fails with the step's error. A node that stops mid-task loses its
/// hold when it runs out, and another node goes on from the last saved step.
public final class TaskWorker: Service {
    public struct Options: Sendable {
        /// How long a claimed task stays this node's without a step saved.
        public var hold = Duration.seconds(120)
        /// The most one step may take before it counts as failed.
        public var stepDeadline = Duration.seconds(60)
        /// How often tasks are looked for when nothing woke the worker.
        public var poll = Duration.seconds(1)
        /// Failed steps before the task fails.
        public var attempts = 5
        /// The wait after a failed step, doubled each time.
        public var retryAfter = Duration.seconds(2)

        public init() {}
    }

    let tasks: PostgresTasks
    let handlers: [String: any TaskHandler]
    let options: Options
    let logger: Logger
    /// This node, as `tasks.held_by` names it.
    let holder = UUID().uuidString.lowercased()
    private let (wakes, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

    public init(tasks: PostgresTasks, handlers: [String: any TaskHandler], options: Options = Options(), logger: Logger) {
        (self.tasks, self.handlers, self.options, self.logger) = (tasks, handlers, options, logger)
    }

    /// Looks for work now (a task was queued on this node).
    public func wake() { waker.yield() }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            let ticks = AsyncStream<Void> { continuation in
                let ticker = Task {
                    while (try? await Task.sleep(for: self.options.poll)) != nil { continuation.yield() }
                    continuation.finish()
                }
                continuation.onTermination = { _ in ticker.cancel() }
            }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await _ in ticks { self.wake() } }
                for await _ in self.wakes {
                    while !Task.isCancelled, await self.runOne() {}
                    if Task.isCancelled { break }
                }
                group.cancelAll()
            }
        }
    }

    /// Claims one task and runs it as far as it goes; false when none was waiting.
    func runOne() async -> Bool {
        let claimed: PostgresTasks.Claimed?
        do {
            claimed = try await withDeadline(options.stepDeadline, "claiming a task") { [tasks, holder, options, logger] in
                try await tasks.claim(holder: holder, hold: options.hold, logger: logger)
            }
        } catch {
            logger.warning("cannot claim a task", metadata: ["error": "\(error)"])
            return false
        }
        guard var task = claimed else { return false }
        let logger = {
            var logger = self.logger
            (logger[metadataKey: "task"], logger[metadataKey: "kind"]) = ("\(task.id)", "\(task.kind)")
            return logger
        }()
        guard let handler = handlers[task.kind] else {
            let failure = BackgroundTask.Failure(type: "internal", description: "no worker runs \(task.kind) tasks")
            await settle { [task] in try await self.tasks.fail(task, holder: self.holder, failure, logger: logger) }
            return true
        }
        let stepDeadline = max(options.stepDeadline, handler.stepDeadline ?? .zero)
        let hold = options.hold + (stepDeadline - options.stepDeadline)
        while !Task.isCancelled {
            do {
                if hold > options.hold {
                    let held = task
                    guard try await withDeadline(options.stepDeadline, "holding a task", { [tasks, holder] in
                        try await tasks.save(held, holder: holder, hold: hold, logger: logger)
                    }) else { return true }
                }
                let current = task
                let (next, done) = try await withDeadline(stepDeadline, "a \(task.kind) step") { [logger] in
                    var next = current
                    let done = try await handler.step(&next, logger: logger)
                    return (next, done)
                }
                task = next
                if done {
                    await settle { [task] in try await self.tasks.finish(task, holder: self.holder, logger: logger) }
                    logger.info("task completed", metadata: ["result": "\(task.result)"])
                    return true
                }
                let saved = task
                guard try await withDeadline(options.stepDeadline, "saving a task's progress", { [tasks, holder] in
                    try await tasks.save(saved, holder: holder, hold: hold, logger: logger)
                }) else {
                    logger.warning("lost the hold of a task; another node goes on with it")
                    return true
                }
            } catch {
                if Task.isCancelled { return false }
                await failed(task, error, logger: logger)
                return true
            }
        }
        return false
    }

    /// A step failed: the task waits and is tried again, or after `attempts` fails. Only a
    /// `FeedsError`'s message is shown to the caller; anything else is logged.
    private func failed(_ task: PostgresTasks.Claimed, _ error: any Error, logger: Logger) async {
        let attempt = task.attempts + 1
        logger.warning("a task step failed", metadata: ["attempt": "\(attempt)", "error": "\(error)"])
        guard attempt >= options.attempts else {
            let wait = options.retryAfter * (1 << min(attempt - 1, 10))
            await settle { try await self.tasks.postpone(task, holder: self.holder, wait: wait, logger: logger) }
            return
        }
        let failure = (error as? FeedsError).map { BackgroundTask.Failure(type: "\($0.kind)", description: $0.message) }
            ?? BackgroundTask.Failure(type: "internal", description: "the task failed \(attempt) times; see the server's log")
        await settle { try await self.tasks.fail(task, holder: self.holder, failure, logger: logger) }
    }

    /// A task's last write; if it fails too, the hold runs out and another try picks the task up.
    private func settle(_ write: @escaping @Sendable () async throws -> Void) async {
        do { try await withDeadline(options.stepDeadline, "settling a task", write) } catch {
            logger.warning("cannot settle a task; it is taken up again once its hold runs out", metadata: ["error": "\(error)"])
        }
    }
}
