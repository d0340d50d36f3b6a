import FeedsCore
import Foundation
import Logging

extension ObjectSweeper {
    /// Finds objects in the store that no record names, or whose record says deleted, and
    /// deletes them: what no other path can reach (a PUT that landed after every delete of its
    /// failed request, a crash at the wrong moment, a bucket written by hand). Objects written
    /// within `grace` are left, and every upload records its object before the bytes go, so an
    /// upload in flight is never taken. Pages through the store's listing; returns the deleted count.
    package func reconcile(grace: Duration, logger: Logger) async throws -> Int {
        let cutoff = Date().addingTimeInterval(-Double(grace.components.seconds))
        var after: ObjectKey?
        var deleted = 0
        while true {
            let page = try await cdn.list(after: after, limit: 1000)
            guard let last = page.last else { break }
            after = last.key
            let old = page.filter { $0.modified < cutoff }.map(\.key)
            guard !old.isEmpty else { continue }
            let records = try await objects.objects(old, logger: logger)
            for key in old where records[key].map({ $0.state == .deleted }) ?? true {
                do {
                    try await cdn.delete(key: key)
                    await purge(key)
                    deleted += 1
                    logger.info("deleted an object no record held", metadata: ["key": "\(key)"])
                } catch {
                    logger.warning("could not delete an orphaned object; next time", metadata: ["key": "\(key)", "error": "\(error)"])
                }
            }
        }
        return deleted
    }
}
