import FeedsCore
import Foundation
import Logging
import Synchronization
import ServiceLifecycle

/// Delivers the outbox: claims lanes no node holds whose first row is due, and delivers each
/// lane's rows in order through `sender`, up to `concurrency` lanes at once. A row delivered is
/// deleted; one that failed waits out its backoff at the head of its lane (the feed's later
/// events wait behind it) until its day is up, then is marked failed and the lane goes on.
/// Delivery is at least once: a node that stops between a 2xx and its delete leaves the row for
/// the next holder (the receiver drops the repeat by `X-Webhook-Id`).
public final class WebhookDispatcher: Service {
    public struct Options: Sendable {
        /// Lanes this node delivers at once: as many as a hook has (`WebhookPublisher.lanesPerHook`),
        /// so that all of one hook's lanes go at once.
        public var concurrency = 16
        /// How long a lane that read fewer rows than a batch waits before it reads again: under a
        /// steady stream each read then takes what came meanwhile (a few queries a batch, not a
        /// few an event), at this much latency.
        public var linger = Duration.milliseconds(50)
        /// How long a node keeps a lane that never runs dry before it lets others have the slot.
        public var maxHold = Duration.seconds(2)
        /// How long a claimed lane stays this node's without a renewal.
        public var lease = Duration.seconds(60)
        /// How often lanes are looked for when nothing woke the dispatcher.
        public var poll = Duration.milliseconds(250)
        /// How long an event is retried for (Stream: a day); the outbox's to keep.
        public var retryFor = Duration.seconds(86_400)
        /// The longest wait between two attempts.
        public var maxBackoff = Duration.seconds(60)
        /// How long failed rows stay for the admin console.
        public var keepFailed = Duration.seconds(7 * 86_400)
        /// Rows read from a lane at a time.
        public var batch = 64

        public init() {}
    }

    let outbox: PostgresWebhookOutbox
    let settings: AppSettingsCache
    let sender: any WebhookSender
    let options: Options
    let logger: Logger
    /// This node, as `webhook_lanes.held_by` names it.
    let holder = UUID().uuidString.lowercased()
    private let active = Atomic(0)
    private let (wakes, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

    public init(
        outbox: PostgresWebhookOutbox, settings: AppSettingsCache, sender: any WebhookSender, options: Options = Options(),
        logger: Logger
    ) {
        (self.outbox, self.settings, self.sender, self.options, self.logger) = (outbox, settings, sender, options, logger)
    }

    /// Looks for work now (events were written, a lane finished).
    public func wake() {
        waker.yield()
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.tick() }
                group.addTask { await self.expire() }
                for await _ in self.wakes {
                    if Task.isCancelled { break }
                    await self.claim(into: &group)
                }
                group.cancelAll()
            }
        }
    }

    /// Wakes the loop every `poll`: rows written by other nodes, and retries coming due.
    private func tick() async {
        while !Task.isCancelled {
            waker.yield()
            try? await Task.sleep(for: options.poll)
        }
        waker.finish()
    }

    private func claim(into group: inout DiscardingTaskGroup) async {
        let free = options.concurrency - active.load(ordering: .relaxed)
        guard free > 0, !settings.current.webhooks.targets.isEmpty else { return }
        let lanes: [String]
        do {
            lanes = try await outbox.claim(holder: holder, limit: free, lease: options.lease, logger: logger)
        } catch {
            logger.warning("cannot claim webhook lanes", metadata: ["error": "\(error)"])
            return
        }
        for lane in lanes {
            active.add(1, ordering: .relaxed)
            group.addTask {
                await self.deliver(lane)
                self.active.subtract(1, ordering: .relaxed)
                self.wake()
            }
        }
    }

    /// Delivers a lane's rows in order until it is empty, its head must wait, or it is lost.
    private func deliver(_ lane: String) async {
        let clock = ContinuousClock()
        var held = clock.now
        let claimed = clock.now
        do {
            while !Task.isCancelled {
                let rows = try await outbox.head(of: lane, limit: options.batch, logger: logger)
                var done: [Int64] = []
                // Held until a read finds it empty (a row written meanwhile is this holder's), or
                // for `maxHold`, so that lanes take turns at the node's slots; a row written after
                // the release is claimed by the look that follows it (`wake`).
                var stop = rows.isEmpty || clock.now - claimed > options.maxHold
                for row in rows {
                    guard row.due else {
                        stop = true
                        break
                    }
                    guard let hook = settings.current.webhooks.target(row.hookID) else {
                        done.append(row.delivery.id)  // its hook was removed or turned off
                        continue
                    }
                    // A send may take the hook's timeout (at most 30 s): the hold is renewed well before it runs out.
                    if clock.now - held > options.lease / 4 {
                        guard try await outbox.acknowledge(done, lane: lane, holder: holder, lease: options.lease, logger: logger)
                        else { return }
                        (done, held) = ([], clock.now)
                    }
                    let outcome = await sender.send(row.delivery, to: hook)
                    if outcome == .delivered {
                        done.append(row.delivery.id)
                        continue
                    }
                    guard try await outbox.acknowledge(done, lane: lane, holder: holder, lease: options.lease, logger: logger)
                    else { return }
                    (done, held) = ([], clock.now)
                    let (error, retry) =
                        switch outcome {
                        case .retry(let error): (error, true)
                        case .refused(let error): (error, false)
                        case .delivered: ("", false)
                        }
                    let failed = try await outbox.failed(
                        row.delivery.id, error: error, retry: retry, maxBackoff: options.maxBackoff, logger: logger)
                    logger.notice(
                        failed ? "webhook delivery failed" : "webhook delivery will be retried",
                        metadata: ["hook": "\(hook.id)", "attempt": "\(row.delivery.attempt)", "error": "\(error)"])
                    guard failed else {
                        stop = true
                        break
                    }
                }
                guard try await outbox.acknowledge(done, lane: lane, holder: holder, lease: options.lease, logger: logger)
                else { return }
                held = clock.now
                if stop { break }
                if rows.count < options.batch { try await Task.sleep(for: options.linger) }
            }
            try await outbox.release(lane, holder: holder, logger: logger)
        } catch {
            // The lane's hold runs out, and it is claimed again.
            logger.warning("webhook lane interrupted", metadata: ["lane": "\(lane)", "error": "\(error)"])
        }
    }

    /// Once a minute: failed rows past `keepFailed`, and rows of hooks no longer there, go.
    private func expire() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: .seconds(60)) } catch { return }
            do {
                try await outbox.expire(
                    keep: options.keepFailed, hooks: settings.current.webhooks.targets.map(\.id), logger: logger)
            } catch {
                logger.warning("cannot expire webhook deliveries", metadata: ["error": "\(error)"])
            }
        }
    }
}
