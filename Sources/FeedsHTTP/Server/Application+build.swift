import FeedsAPI
import FeedsCore
import FeedsPostgres
import Foundation
import Hummingbird
import Logging
import OpenAPIRuntime
import PostgresNIO
import ServiceLifecycle

/// JSON request bodies above this are refused with 413.
let jsonBodyLimit = 1 << 20

/// Builds the server: shared by `feeds serve` and the tests.
///
/// - Parameters:
///   - database: where PostgreSQL is.
///   - services: long-lived parts that must outlive the database client (the embedded cluster);
///     they start first and stop last.
///   - onServerRunning: called with the bound port once the server listens.
public func buildApplication(
    _ configuration: FeedsConfiguration,
    database: PostgresClient.Configuration,
    services: [any Service] = [],
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    _ = PrometheusMetrics.registry
    let client = PostgresClient(configuration: database, backgroundLogger: logger)
    let store = PostgresActivityStore(client: client)
    let migrations = try Migration.bundled()
    let migrator = Migrator(client: client)
    let authenticator = try await Authenticator(apiKey: configuration.apiKey, apiSecret: configuration.apiSecret)
    let routes = KnownRoutes()

    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: RequestScopeMiddleware())
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: APIErrorMiddleware(routes: routes))
    router.add(middleware: AuthMiddleware(authenticator: authenticator))
    router.add(middleware: JSONBodyLimitMiddleware(limit: jsonBodyLimit))
    OperationsRoutes(migrator: migrator, migrations: migrations).register(on: router)
    try FeedsAPIImplementation(store: store).registerHandlers(
        on: RecordingTransport(router: router, routes: routes),
        serverURL: Servers.Server1.url(),
        // Compact JSON: responses are for programs, and pretty-printing costs time on every read.
        configuration: .init(dateTranscoder: RFC3339DateTranscoder(), jsonEncodingOptions: [.withoutEscapingSlashes])
    )

    var app = Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "feeds"),
        services: services + [client],
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
        logger: logger
    )
    app.beforeServerStarts {
        try await migrator.migrate(migrations, logger: logger)
    }
    return app
}
