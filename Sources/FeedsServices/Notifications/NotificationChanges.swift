import FeedsCore
import Logging
import NIOConcurrencyHelpers

/// `feeds.notification_feed.updated`, read and published off the write's path. A write notes the
/// group it touched and answers; one reader at a time reads every group noted meanwhile, in one
/// statement (`NotificationStore.changes`), and publishes each as it then reads. A busy node
/// shares a read among many writes: read one by one, the reads cost a notifying reaction more
/// than its own writes did (bench/README.md).
///
/// What is read is the group as it is when read, never older than the write that noted it; a
/// change read after a later write of the same feed carries that one's status too.
package final class NotificationChanges: Sendable {
    /// Groups per statement.
    static let batchLimit = 200
    /// The most one read may take, a connection's wait included: the reader is every later
    /// change's way out.
    static let deadline = Duration.seconds(10)

    private struct Queue {
        var touched: [NotificationTouch] = []
        var reading = false
        var settled: [CheckedContinuation<Void, Never>] = []
    }

    private let queue = NIOLockedValueBox(Queue())
    private let store: any NotificationStore
    private let publish: @Sendable (NotificationTouch, NotificationChange) -> Void
    private let logger: Logger

    /// `publish` sends one change's event.
    package init(
        store: any NotificationStore, logger: Logger = Logger(label: "feeds.notifications"),
        publish: @escaping @Sendable (NotificationTouch, NotificationChange) -> Void
    ) {
        (self.store, self.logger, self.publish) = (store, logger, publish)
    }

    /// Notes a touched group; its event follows.
    package func note(_ touch: NotificationTouch) {
        let start = queue.withLockedValue { queue -> Bool in
            queue.touched.append(touch)
            guard !queue.reading else { return false }
            queue.reading = true
            return true
        }
        if start { Task.detached { await self.read() } }
    }

    /// Returns once every change noted before it has been published (or its read has failed).
    package func settled() async {
        await withCheckedContinuation { continuation in
            let now = queue.withLockedValue { queue -> Bool in
                guard queue.reading else { return true }
                queue.settled.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Reads and publishes what was noted, a batch per statement, until nothing is left.
    private func read() async {
        while true {
            let (batch, settled) = queue.withLockedValue { queue -> ([NotificationTouch], [CheckedContinuation<Void, Never>]) in
                // The same group twice in a batch reads once: both writes are in that read.
                var seen = Set<NotificationTouch>()
                let taken = queue.touched.prefix(Self.batchLimit)
                queue.touched.removeFirst(taken.count)
                guard taken.isEmpty else { return (taken.filter { seen.insert($0).inserted }, []) }
                queue.reading = false
                defer { queue.settled = [] }
                return ([], queue.settled)
            }
            guard !batch.isEmpty else {
                for continuation in settled { continuation.resume() }
                return
            }
            do {
                let changes = try await withDeadline(
                    Self.deadline, orThrow: { FeedsError(.unavailable, "the notification changes did not answer in time") }
                ) { [store, logger] in
                    try await store.changes(batch, logger: logger)
                }
                for (touch, change) in zip(batch, changes) { publish(touch, change) }
            } catch {
                logger.error(
                    "notification feed events not published", metadata: ["groups": "\(batch.count)", "error": "\(error)"])
            }
        }
    }
}
