import FeedsCore
import Foundation
import Logging

/// One sweep, recorded in the gc runs list the admin console shows: every sweep that ran, a
/// console's that did not (another node held it), and any that failed. A record that cannot be
/// written is logged; the sweep's own outcome stands.
package func recordedSweep(
    _ sweeper: ObjectSweeper, trigger: GCRun.Trigger, reconciling: Bool = false, runs: any AdminStore, logger: Logger
) async throws -> ObjectSweeper.Report {
    let started = Date()
    let run: GCRun
    let outcome: Result<ObjectSweeper.Report, any Error>
    do {
        let report = try await sweeper.sweep(reconciling: reconciling, logger: logger)
        outcome = .success(report)
        run = GCRun(
            trigger: trigger, startedAt: started, finishedAt: Date(), ran: report.ran, objects: report.objects,
            failed: report.failed, tempFiles: report.tempFiles, idempotencyKeys: report.idempotencyKeys, orphans: report.orphans)
    } catch {
        // A sweep cut short by shutdown is no run to record, and the database may be going too.
        if Task.isCancelled || error is CancellationError { throw error }
        outcome = .failure(error)
        run = GCRun(trigger: trigger, startedAt: started, finishedAt: Date(), ran: true, error: "\(error)")
    }
    if run.ran || trigger != .schedule, !Task.isCancelled {
        do {
            try await runs.record(run, logger: logger)
        } catch {
            logger.warning("could not record a gc run", metadata: ["error": "\(error)"])
        }
    }
    return try outcome.get()
}
