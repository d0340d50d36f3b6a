import ArgumentParser
import FeedsHTTP
import FeedsServer

/// `feeds gc`: one sweep of abandoned uploads and stray temp files, then exit.
struct GC: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Delete abandoned uploads (pending over an hour, unattached past the TTL) and stray temp files."
    )

    @OptionGroup var settings: SettingsOptions

    func run() async throws {
        let (configuration, _) = try settings.resolve()
        let logger = configuration.logger
        let (database, embedded) = try await reportingSetupErrors { try await configuration.openDatabase() }
        do {
            let report = try await sweepOnce(configuration, database: database, logger: logger)
            if report.ran {
                print(
                    "Removed \(report.objects) objects, \(report.orphans) objects no record held, \(report.tempFiles) temp files "
                        + "and \(report.idempotencyKeys) expired idempotency keys."
                        + (report.failed > 0 ? " \(report.failed) deletes failed; the next sweep retries them." : ""))
            } else {
                print("Another node is sweeping now.")
            }
        } catch {
            try? await embedded?.stop()
            throw error
        }
        try await embedded?.stop()
    }
}
