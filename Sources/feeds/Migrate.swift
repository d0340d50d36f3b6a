import ArgumentParser
import FeedsHTTP
import FeedsPostgres
import Logging
import PostgresNIO

/// `feeds migrate`: applies pending migrations and exits.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations.")

    @OptionGroup var settings: SettingsOptions

    func run() async throws {
        let (configuration, _) = try settings.resolve()
        let logger = configuration.logger
        let (database, embedded) = try await reportingSetupErrors { try await configuration.openDatabase() }
        let client = PostgresClient(configuration: database, backgroundLogger: logger)
        do {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await client.run() }
                defer { group.cancelAll() }
                let applied = try await reportingSetupErrors {
                    try await Migrator(client: client).migrate(try Migration.bundled(), logger: logger)
                }
                print(applied.isEmpty ? "Nothing to apply." : "Applied: \(applied.joined(separator: ", "))")
            }
        } catch {
            try? await embedded?.stop()
            throw error
        }
        try await embedded?.stop()
    }
}
