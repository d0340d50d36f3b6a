import FeedsCore
import Foundation
import Logging

/// Deletes what nobody holds: objects reserved for longer than an hour (their request died
/// between reserving and attaching), standalone uploads never attached within the unattached TTL,
/// objects released by their activity, deletes that failed before, and stray temp files. Each
/// object is claimed (→ deleting) before its bytes go, so an attach racing the sweep either wins
/// and keeps the object or loses and is refused; a delete that fails leaves the claim for the
/// next sweep and the rest goes on. Idempotency keys past their 24 hours go too. One node sweeps
/// at a time.
package struct ObjectSweeper: Sendable {
    let objects: any ObjectStore
    let cdn: any CDNClient
    let tempDirectory: URL
    let pendingTTL: Duration
    let unattachedTTL: Duration?
    let releasedTTL: Duration
    package let retryAfter: Duration
    /// How old an object no record names must be before `reconcile` deletes it.
    let orphanGrace: Duration
    let idempotency: (any IdempotencyStore)?
    /// Told of every object whose bytes are gone, to drop what was made from it (variants, cached copies).
    let purge: @Sendable (ObjectKey) async -> Void

    /// What a sweep removed.
    package struct Report: Sendable, Equatable {
        package var objects = 0
        package var tempFiles = 0
        package var idempotencyKeys = 0
        /// Objects in the store that no record held (`reconcile`).
        package var orphans = 0
        /// Deletes the store refused this time; they are retried on a later sweep.
        package var failed = 0
        /// False when another node held the sweep.
        package var ran = true
    }

    /// `unattachedTTL` nil keeps unattached uploads forever.
    package init(
        objects: any ObjectStore, cdn: any CDNClient, tempDirectory: URL, pendingTTL: Duration = .seconds(3600),
        unattachedTTL: Duration?, releasedTTL: Duration = .seconds(3600), retryAfter: Duration = .seconds(300),
        orphanGrace: Duration = .seconds(3600), idempotency: (any IdempotencyStore)? = nil, purge: @escaping @Sendable (ObjectKey) async -> Void = { _ in }
    ) {
        self.objects = objects
        self.cdn = cdn
        self.tempDirectory = tempDirectory
        self.pendingTTL = pendingTTL
        self.unattachedTTL = unattachedTTL
        self.releasedTTL = releasedTTL
        self.retryAfter = retryAfter
        self.orphanGrace = orphanGrace
        self.idempotency = idempotency
        self.purge = purge
    }

    /// One sweep, in batches until nothing is left to claim; with `reconciling`, the store's
    /// listing is gone through too, for objects no record names.
    package func sweep(reconciling: Bool = false, logger: Logger) async throws -> Report {
        let counter = ReportBox()
        let ran = try await objects.exclusively(logger: logger) {
            while true {
                // A claim's time is now, so a delete that fails here is not claimed again in this sweep.
                let keys = try await objects.claimSweepable(
                    pendingTTL: pendingTTL, unattachedTTL: unattachedTTL, releasedTTL: releasedTTL,
                    retryAfter: retryAfter, limit: 100, logger: logger
                )
                if keys.isEmpty { break }
                var deleted: [ObjectKey] = []
                for key in keys {
                    do {
                        try await cdn.delete(key: key)
                        deleted.append(key)
                        await purge(key)
                    } catch {
                        logger.warning(
                            "could not delete a swept object; next sweep", metadata: ["key": "\(key)", "error": "\(error)"])
                    }
                }
                try await objects.markDeleted(deleted, logger: logger)
                await counter.add(objects: deleted.count, failed: keys.count - deleted.count)
            }
            await counter.add(tempFiles: removeStaleTempFiles(logger: logger))
            if let idempotency { await counter.add(idempotencyKeys: try await idempotency.purgeExpired(logger: logger)) }
            if reconciling { await counter.add(orphans: try await reconcile(grace: orphanGrace, logger: logger)) }
        }
        var report = await counter.report
        report.ran = ran
        if report != Report() {
            logger.info(
                "swept",
                metadata: [
                    "objects": "\(report.objects)", "temp_files": "\(report.tempFiles)", "failed": "\(report.failed)",
                    "idempotency_keys": "\(report.idempotencyKeys)", "orphans": "\(report.orphans)",
                ])
        }
        return report
    }

    /// Temp files of dead processes, and those older than the pending TTL, belong to no live
    /// request. A live process's folder stays, with its lock.
    private func removeStaleTempFiles(logger: Logger) -> Int {
        let cutoff = Date().addingTimeInterval(-Double(pendingTTL.components.seconds))
        var removed = ProcessTempDirectory.removeAbandoned(in: tempDirectory)
        let live = ProcessTempDirectory.folders(in: tempDirectory)
        for folder in [tempDirectory] + live {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where name != ProcessTempDirectory.lockName {
                let url = folder.appendingPathComponent(name)
                guard !live.contains(url),
                    let modified = try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date,
                    modified < cutoff
                else { continue }
                if (try? FileManager.default.removeItem(at: url)) != nil { removed += 1 }
            }
        }
        return removed
    }
}

/// Counts across the sweep's sendable closure.
private actor ReportBox {
    var report = ObjectSweeper.Report()
    func add(objects: Int = 0, failed: Int = 0, tempFiles: Int = 0, idempotencyKeys: Int = 0, orphans: Int = 0) {
        report.idempotencyKeys += idempotencyKeys
        report.orphans += orphans
        report.objects += objects
        report.failed += failed
        report.tempFiles += tempFiles
    }
}
