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
    /// Groups waiting past this many are dropped (and counted): the database is not keeping up,
    /// and the notifications themselves are written; their feeds read right on the next page.
    let queueLimit: Int
    /// The most one read may take, a connection's wait included: the reader is every later
    /// change's way out.
    static let deadline = Duration.seconds(10)

    private struct Queue {
        var touched: [NotificationTouch] = []
        var reading = false
        var dropped = 0
        var settled: [CheckedContinuation<Void, Never>] = []
    }

    private let queue = NIOLockedValueBox(Queue())
    private let store: any NotificationStore
    private let publish: @Sendable (NotificationTouch, NotificationChange) -> Void
    private let logger: Logger

    /// `publish` sends one change's event.
    package init(
        store: any NotificationStore, queueLimit: Int = 50_000, logger: Logger = Logger(label: "feeds.notifications"),
        publish: @escaping @Sendable (NotificationTouch, NotificationChange) -> Void
    ) {
        (self.store, self.queueLimit, self.logger, self.publish) = (store, queueLimit, logger, publish)
    }

    /// Notes a touched group; its event follows.
    package func note(_ touch: NotificationTouch) {
        let start = queue.withLockedValue { queue -> Bool in
            if queue.touched.count < queueLimit { queue.touched.append(touch) } else { queue.dropped += 1 }
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
            let (batch, settled, dropped) = queue.withLockedValue { queue in
                let batch = Self.next(&queue)
                var settled: [CheckedContinuation<Void, Never>] = []
                if !queue.reading { swap(&settled, &queue.settled) }
                defer { queue.dropped = 0 }
                return (batch, settled, queue.dropped)
            }
            if dropped > 0 {
                logger.error(
                    "notification feed events dropped: the database is not keeping up", metadata: ["groups": "\(dropped)"])
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

    /// The next batch, the same group once (both writes are in its read); none ends the reading.
    private static func next(_ queue: inout Queue) -> [NotificationTouch] {
        let taken = queue.touched.prefix(batchLimit)
        queue.touched.removeFirst(taken.count)
        if taken.isEmpty { queue.reading = false }
        var seen = Set<NotificationTouch>()
        return taken.filter { seen.insert($0).inserted }
    }
}
