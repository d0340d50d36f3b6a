import Foundation
import Logging

/// Deletes what a crash or an abandoned upload left behind: objects pending for longer than an
/// hour (their request died between reserving and attaching), standalone uploads never
/// attached within the unattached TTL, and stray temp files. One node sweeps at a time.
public struct ObjectSweeper: Sendable {
    let objects: any ObjectStore
    let cdn: any CDNClient
    let tempDirectory: URL
    let pendingTTL: Duration
    let unattachedTTL: Duration?

    /// What a sweep removed.
    public struct Report: Sendable, Equatable {
        public var objects = 0
        public var tempFiles = 0
        /// False when another node held the sweep.
        public var ran = true
    }

    /// `unattachedTTL` nil keeps unattached uploads forever.
    public init(
        objects: any ObjectStore, cdn: any CDNClient, tempDirectory: URL, pendingTTL: Duration = .seconds(3600),
        unattachedTTL: Duration?
    ) {
        self.objects = objects
        self.cdn = cdn
        self.tempDirectory = tempDirectory
        self.pendingTTL = pendingTTL
        self.unattachedTTL = unattachedTTL
    }

    /// One sweep, in batches until nothing is left.
    public func sweep(logger: Logger) async throws -> Report {
        let counter = ReportBox()
        let ran = try await objects.exclusively(logger: logger) {
            while true {
                let keys = try await objects.sweepCandidates(
                    pendingTTL: pendingTTL, unattachedTTL: unattachedTTL, limit: 100, logger: logger
                )
                if keys.isEmpty { break }
                for key in keys {
                    try await cdn.delete(key: key)
                    _ = try await objects.markDeleted(key, logger: logger)
                }
                await counter.add(objects: keys.count)
            }
            await counter.add(tempFiles: removeStaleTempFiles(logger: logger))
        }
        var report = await counter.report
        report.ran = ran
        if report.objects > 0 || report.tempFiles > 0 {
            logger.info("swept", metadata: ["objects": "\(report.objects)", "temp_files": "\(report.tempFiles)"])
        }
        return report
    }

    /// Temp files older than the pending TTL belong to no live request.
    private func removeStaleTempFiles(logger: Logger) -> Int {
        let cutoff = Date().addingTimeInterval(-Double(pendingTTL.components.seconds))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: tempDirectory.path)) ?? []
        var removed = 0
        for name in names {
            let url = tempDirectory.appendingPathComponent(name)
            guard let modified = try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date,
                modified < cutoff
            else { continue }
            if (try? FileManager.default.removeItem(at: url)) != nil { removed += 1 }
        }
        return removed
    }
}

/// Counts across the sweep's sendable closure.
private actor ReportBox {
    var report = ObjectSweeper.Report()
    func add(objects: Int = 0, tempFiles: Int = 0) {
        report.objects += objects
        report.tempFiles += tempFiles
    }
}
