import ArgumentParser
import FeedsAuth
import FeedsHTTP
import FeedsPostgres
import FeedsServer
import Foundation
import Hummingbird
import ServiceLifecycle

/// `feeds serve`: the HTTP server, until SIGTERM or SIGINT.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server (the default command).")

    @OptionGroup var settings: SettingsOptions

    func run() async throws {
        let (configuration, generated) = try settings.resolve()
        let logger = configuration.logger
        let (database, embedded) = try await reportingSetupErrors { try await configuration.openDatabase() }
        let app: any ApplicationProtocol
        do {
            let serverToken = try await reportingSetupErrors {
                try await Authenticator(apiKey: configuration.apiKey, apiSecret: configuration.apiSecret)
                    .token(userID: nil)
            }
            app = try await buildApplication(
                configuration, database: database, services: embedded.map { [$0] } ?? [], logger: logger,
                onServerRunning: { port in
                    let url = "http://\(configuration.host):\(port)"
                    print("Feeds is listening on \(url)")
                    if generated {
                        print("Development credentials (kept in \(configuration.dataDirectory.path)/credentials.json):")
                    }
                    print("  api key:      \(configuration.apiKey)")
                    print("  server token: \(serverToken)")
                    print("  try: curl '\(url)/api/v2/feeds/activities/query?api_key=\(configuration.apiKey)' \\")
                    print(
                        "         -H 'Stream-Auth-Type: jwt' -H 'Authorization: \(serverToken)' -H 'Content-Type: application/json' -d '{}'"
                    )
                    // Piped output is block-buffered; the banner must show at once.
                    fflush(nil)
                },
                onWebSocketRunning: { port in
                    print("Real time (Stream's client SDKs connect here): ws://\(configuration.host):\(port)/api/v2/connect")
                    fflush(nil)
                })
        } catch {
            try? await embedded?.stop()
            throw error
        }
        // SIGTERM stops accepting and lets requests in flight finish for the drain timeout, then
        // cancels them; whatever still does not stop in 5 s more ends the process.
        var group = ServiceGroupConfiguration(
            services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: configuration.logger)
        group.maximumGracefulShutdownDuration = configuration.drainTimeout
        group.maximumCancellationDuration = .seconds(5)
        try await reportingSetupErrors { try await ServiceGroup(configuration: group).run() }
    }
}

/// Runs start-up work, turning the errors a user can fix into one clear line and exit code 1.
func reportingSetupErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as EmbeddedPostgresError {
        throw SetupError(message: error.description)
    } catch let error as MigrationError {
        throw SetupError(message: error.description)
    } catch let error as DatabaseURLError {
        throw SetupError(message: error.description)
    } catch let error as ConfigurationError {
        throw SetupError(message: error.description)
    }
}

/// A start-up failure with a message meant for the operator.
struct SetupError: Error, CustomStringConvertible {
    let message: String
    var description: String { "feeds: \(message)" }
}
