import FeedsCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Puts every published event that an app's hook wants into the outbox, off the write's path:
/// events queue, and one flush at a time writes what queued in one statement. A statement that
/// fails (the database restarting) is tried again, with backoff, until it is written; only past
/// `queueLimit` waiting events are any dropped (and logged). What is written, the dispatchers
/// deliver (`WebhookDispatcher`); `written` wakes this node's.
public final class WebhookPublisher: EventPublisher {
    /// Hashed lanes per hook: a feed's events keep their order within its lane, and a hook's
    /// events go out on up to this many lanes at once.
    public static let lanesPerHook: UInt32 = 16
    static let batchLimit = 500
    static let queueLimit = 100_000

    let outbox: PostgresWebhookOutbox
    let settings: AppSettingsCache
    let logger: Logger
    let written: @Sendable () -> Void
    private let state = NIOLockedValueBox(Queue())

    struct Queue {
        var entries: [PostgresWebhookOutbox.Entry] = []
        var flushing = false
        var dropped = 0
    }

    public init(
        outbox: PostgresWebhookOutbox, settings: AppSettingsCache, logger: Logger, written: @escaping @Sendable () -> Void
    ) {
        (self.outbox, self.settings, self.logger, self.written) = (outbox, settings, logger, written)
    }

    public func publish(_ events: [FeedEvent]) {
        let targets = settings.current.webhooks.targets
        guard !targets.isEmpty else { return }
        var entries: [PostgresWebhookOutbox.Entry] = []
        for event in events {
            let type = event.type
            let hooks = targets.filter { $0.wants(type) }
            guard !hooks.isEmpty else { continue }
            let fid = event.fids.first ?? ""
            let body = String(decoding: fid.isEmpty ? event.payload : event.message(for: fid), as: UTF8.self)
            let lane = Self.lane(fid)
            for hook in hooks {
                entries.append(
                    .init(
                        webhookID: UUID().uuidString.lowercased(), lane: "\(hook.id)/\(lane)", hookID: hook.id, eventType: type,
                        body: body))
            }
        }
        guard !entries.isEmpty else { return }
        let start = state.withLockedValue { queue -> Bool in
            let room = max(0, Self.queueLimit - queue.entries.count)
            queue.entries += entries.prefix(room)
            queue.dropped += max(0, entries.count - room)
            guard !queue.flushing else { return false }
            queue.flushing = true
            return true
        }
        if start { Task { await flush() } }
    }

    /// A feed's lane: FNV-1a of its id (the same on every node, unlike `Hasher`).
    static func lane(_ fid: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in fid.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash % lanesPerHook
    }

    private func flush() async {
        var backoff = Duration.milliseconds(100)
        while true {
            let (batch, dropped) = state.withLockedValue { queue -> ([PostgresWebhookOutbox.Entry], Int) in
                let batch = Array(queue.entries.prefix(Self.batchLimit))
                if batch.isEmpty { queue.flushing = false }
                defer { queue.dropped = 0 }
                return (batch, queue.dropped)
            }
            if dropped > 0 {
                logger.error("webhook events dropped: the outbox cannot be written", metadata: ["events": "\(dropped)"])
            }
            guard !batch.isEmpty else { return }
            do {
                try await outbox.enqueue(batch, logger: logger)
                state.withLockedValue { $0.entries.removeFirst(batch.count) }
                backoff = .milliseconds(100)
                written()
            } catch {
                logger.warning(
                    "webhook events not written yet; trying again", metadata: ["events": "\(batch.count)", "error": "\(error)"])
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(5))
            }
        }
    }
}
