import FeedsCore
import FeedsPostgres
import Logging
import ServiceLifecycle

/// Deletes expired activities (stories past their `expires_at`) every interval, a batch at a
/// time, with their notifications; the hard delete releases their files to gc. Reads leave them
/// out from the moment they expire, so this only reclaims the space.
struct ExpiryService: Service {
    let store: PostgresActivityStore
    let notifications: any NotificationStore
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await expireAll()
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("deleting expired activities failed; next time", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    func expireAll() async throws {
        while !Task.isCancelled {
            let ids = try await store.expiredActivityIDs(limit: 100, logger: logger)
            guard !ids.isEmpty else { return }
            let deleted = try await store.deleteActivities(ids: ids, hard: true, logger: logger, mayDelete: { _ in true })
            for id in deleted { _ = try await notifications.removeAll(activityID: id, logger: logger) }
            logger.info("deleted expired activities", metadata: ["count": "\(deleted.count)"])
            if deleted.count < ids.count { return }
        }
    }
}
