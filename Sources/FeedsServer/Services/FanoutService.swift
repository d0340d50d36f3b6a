import FeedsPostgres
import Logging
import ServiceLifecycle

/// Copies posts into followers' timelines (`Fanout`) until shutdown: claims jobs while there are
/// any, and looks again every `idle` when there are none. Each node runs a few; they share the
/// queue through SKIP LOCKED.
struct FanoutService: Service {
    let fanout: Fanout
    var idle: Duration = .milliseconds(50)
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    if try await fanout.runBatch(logger: logger) > 0 { continue }
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("fan-out failed; trying again", metadata: ["error": "\(String(reflecting: error))"])
                }
                try? await Task.sleep(for: idle)
            }
        }
    }
}
