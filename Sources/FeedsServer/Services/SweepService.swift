import FeedsCore
import FeedsUploads
import Logging
import ServiceLifecycle

/// Runs the sweeper every interval until shutdown; the store's lock keeps it to one node at a time.
/// The first sweep, and then one every `reconcileInterval`, also goes through the store's listing
/// for objects no record names (a listing of the whole bucket is too dear for every sweep).
struct SweepService: Service {
    let sweeper: ObjectSweeper
    /// Where each run is recorded for the admin console.
    let runs: any AdminStore
    let interval: Duration
    var reconcileInterval: Duration = .seconds(6 * 3600)
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var reconciled: ContinuousClock.Instant?
            while !Task.isCancelled {
                do {
                    let due = reconciled.map { ContinuousClock.now - $0 >= reconcileInterval } ?? true
                    let report = try await recordedSweep(
                        sweeper, trigger: .schedule, reconciling: due, runs: runs, logger: logger)
                    if due, report.ran { reconciled = .now }
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
