import FeedsCore
import Logging

extension ObjectSweeper {
    /// What the next sweep would delete, by state, under this sweeper's own TTLs.
    package func preview(logger: Logger) async throws -> [ObjectRecord.State: ObjectTotals] {
        try await objects.sweepable(
            pendingTTL: pendingTTL, unattachedTTL: unattachedTTL, releasedTTL: releasedTTL, retryAfter: retryAfter,
            logger: logger)
    }

    /// How old an object of each state the sweep takes must be; nil: unattached uploads are kept.
    package var ages: [(state: ObjectRecord.State, age: Duration?)] {
        [(.reserved, pendingTTL), (.stored, unattachedTTL), (.released, releasedTTL), (.deleting, retryAfter)]
    }
}
