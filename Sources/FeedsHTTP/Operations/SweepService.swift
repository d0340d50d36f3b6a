import FeedsCore
import FeedsUploads
import Logging
import ServiceLifecycle

/// Runs the sweeper every interval until shutdown; the store's lock keeps it to one node at a time.
struct SweepService: Service {
    let sweeper: ObjectSweeper
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    _ = try await sweeper.sweep(logger: logger)
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("sweep failed; next time", metadata: ["error": "\(String(reflecting: error))"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
