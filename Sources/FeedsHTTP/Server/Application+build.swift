import FeedsAPI
import FeedsCDN
import FeedsCore
import FeedsPostgres
import FeedsUploads
import Foundation
import HTTPTypes
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
///   - wrapCDN: wraps the configured store for uploads and deletes (the tests make it fail);
///     `/cdn/{key}` still reads the store itself.
///   - onServerRunning: called with the bound port once the server listens.
public func buildApplication(
    _ configuration: FeedsConfiguration,
    database: PostgresClient.Configuration,
    services: [any Service] = [],
    wrapCDN: (@Sendable (any CDNClient) -> any CDNClient)? = nil,
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
    onWebSocketRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    _ = PrometheusMetrics.registry
    ReceiveBufferReuse.apply()
    var database = database
    database.options.maximumConnections = configuration.databaseConnections
    // A statement that runs longer fails at the server; a database that does not answer fails the connect.
    database.options.connectTimeout = configuration.databaseConnectTimeout
    database.options.additionalStartupParameters.append(
        ("statement_timeout", String(configuration.databaseStatementTimeout.components.seconds * 1000)))
    let client = PostgresClient(configuration: database.named("feeds"), backgroundLogger: logger)
    let probe = DatabaseProbe(database, logger: logger)
    let preparedClient = PostgresClient(configuration: database.generic.named("feeds-prepared"), backgroundLogger: logger)
    let store = PostgresActivityStore(client: client, prepared: preparedClient)
    let migrations = try Migration.bundled()
    let migrator = Migrator(client: client)
    let authenticator = try await Authenticator(apiKey: configuration.apiKey, apiSecret: configuration.apiSecret)
    let proxies = try TrustedProxies(configuration.trustedProxies)
    let rateLimiter = RateLimiter(limits: configuration.rateLimits, now: configuration.rateLimitClock)
    let settings = AppSettingsCache()
    let settingsStore = PostgresAppSettingsStore(client: client)
    let hot = HotObjects(budget: configuration.hotObjectBytes)
    let idempotencyStore = PostgresIdempotencyStore(client: client)
    let backend = try makeCDNBackend(configuration, logger: logger)
    let uploads = try makeUploadPipeline(
        configuration, client: client, settings: settings, cdn: wrapCDN.map { $0(backend.client) } ?? backend.client,
        purge: { hot.purge($0.rawValue) }, logger: logger)

    // Compact JSON: responses are for programs, and pretty-printing costs time on every read. No
    // generated type holds a Date: times are integers on the wire (`WireTime`).
    let openAPIConfiguration = Configuration(jsonEncodingOptions: [.withoutEscapingSlashes])
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: RequestScopeMiddleware())
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: CDNSafetyHeadersMiddleware())
    router.add(middleware: APIErrorMiddleware())
    router.add(middleware: AcceptMiddleware())
    router.add(middleware: DatabaseDownMiddleware(probe: probe))
    router.add(middleware: AuthMiddleware(authenticator: authenticator))
    router.add(middleware: RateLimitMiddleware(limiter: rateLimiter))
    router.add(middleware: JSONBodyLimitMiddleware(limit: jsonBodyLimit))
    // Multipart bodies go to our scanner (memchr), decoded with the same configuration.
    router.add(middleware: FastMultipartMiddleware(configuration: openAPIConfiguration))
    OperationsRoutes(migrator: migrator, migrations: migrations, cdn: uploads.cdn, probe: probe).register(on: router)
    registerCDNRoutes(backend, uploads: uploads, hot: hot, on: router)
    // Real time: this node's sockets, and the events of every node's writes through PostgreSQL.
    let hub = RealtimeHub()
    let bus = PostgresEventBus(client: client, listening: database.named("feeds-listener"), logger: logger)
    bus.onReceive(
        deliver: { hub.deliver($0, followers: $1) },
        watched: { hub.watchedFeeds },
        watch: { connectionID, fid, userID, on in hub.watch(connectionID: connectionID, fid: fid, userID: userID, on: on) },
        gap: { hub.resyncAll(reason: "events may have been missed; reconnect and re-sync") })
    let realtime = Realtime(hub: hub, publisher: bus) { connectionID, fid, userID, on in
        try await bus.forwardWatch(connectionID: connectionID, fid: fid, userID: userID, on: on)
    }
    let api = FeedsAPIImplementation(
        store: store, uploads: uploads, idempotency: Idempotency(store: idempotencyStore),
        settingsStore: settingsStore, realtime: realtime, rateLimiter: rateLimiter, deadline: configuration.requestTimeout
    )
    let realtimeEndpoint = RealtimeEndpoint(
        hub: hub, authenticator: authenticator, store: store, authTimeout: configuration.webSocketAuthTimeout,
        pending: PendingSockets(
            limit: configuration.webSocketPending.limit, perAddress: configuration.webSocketPending.perAddress))
    let realtimeServer = RealtimeServer(
        endpoint: realtimeEndpoint,
        host: configuration.host, port: configuration.effectiveWebSocketPort, maxConnections: configuration.maxConnections,
        logger: logger, onServerRunning: onWebSocketRunning)
    // The replies sent most are written by JSONWriter on routes of their own (`HandWrittenRoute`).
    let pages = FeedPageRoutes(api: api, bodyLimit: jsonBodyLimit, deadline: configuration.requestTimeout)
    let creates = AddActivityRoute(api: api, bodyLimit: jsonBodyLimit, deadline: configuration.requestTimeout)
    let transport = GeneratedTransport(
        router: router, handWritten: type(of: pages).routes + type(of: creates).routes)
    try DeadlineAPI(base: api, limit: configuration.requestTimeout).registerHandlers(
        on: transport,
        serverURL: Servers.Server1.url(),
        configuration: openAPIConfiguration
    )
    pages.register(on: router)
    creates.register(on: router, generated: transport.generated)
    let adminStore = PostgresAdminStore(client: client)
    let sweeper = makeSweeper(configuration, uploads: uploads, idempotency: idempotencyStore)
    try makeAdminConsole(
        configuration, client: client, store: adminStore, settingsStore: settingsStore, uploads: uploads, sweeper: sweeper,
        authenticator: authenticator
    ).register(on: router)

    let serverName = "feeds"
    let migrated = StartGate()
    let connections = ConnectionGuard.Count()
    let local: LocalDiskCDN? = if case .localDisk(let cdn) = backend { cdn } else { nil }
    var app = Application(
        router: router,
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [
                    // First, so that every response passes it, the CDN fast path's too.
                    ConnectionGuard(
                        headerTimeout: TimeAmount(configuration.headerTimeout),
                        maxConnections: configuration.maxConnections, count: connections),
                    RequestHeadNormalizer(proxies: proxies),
                    MainPortUpgrade(endpoint: realtimeEndpoint, logger: logger),
                    LargeReadsHandler(), ExpectContinueHandler(limit: bodyLimit(uploads)),
                ]
                    + (local.map { [CDNFastPath(cdn: $0, hot: hot, serverName: serverName)] } ?? []))),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: serverName),
        services: services + [
            client, preparedClient, probe, realtimeServer, HeapTrimService(interval: configuration.heapTrimInterval),
            HealthCheckService(
                hub: hub, interval: configuration.healthCheckInterval, pingInterval: configuration.webSocketPingInterval),
        ] + [
            AfterGate(gate: migrated, service: bus),
            AfterGate(
                gate: migrated,
                service: AppSettingsListener(
                    client: client, cache: settings, refreshInterval: configuration.settingsRefreshInterval, logger: logger)),
            AfterGate(
                gate: migrated,
                service: SweepService(
                    sweeper: sweeper, runs: adminStore, interval: configuration.gcInterval, logger: logger)),
        ]
            + (0..<configuration.fanoutWorkers).map { _ in
                AfterGate(gate: migrated, service: FanoutService(fanout: Fanout(client: client), logger: logger))
            },
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
        logger: logger
    )
    app.beforeServerStarts {
        try await migrator.migrate(migrations, logger: logger)
        settings.offer(try await settingsStore.settings(logger: logger))
        migrated.open()
    }
    return app
}

/// The local CDN, the uploader and the object records, over the server's data directory.
func makeUploadPipeline(
    _ configuration: FeedsConfiguration, client: PostgresClient, settings: AppSettingsCache = AppSettingsCache(),
    cdn: (any CDNClient)? = nil, purge: @escaping @Sendable (ObjectKey) async -> Void = { _ in }, logger: Logger
) throws -> UploadPipeline {
    try FileManager.default.createDirectory(at: configuration.tempDirectory, withIntermediateDirectories: true)
    // What uploads cut short by a crash left: nothing of a dead process can still be writing it.
    let abandoned = ProcessTempDirectory.removeAbandoned(in: configuration.tempDirectory)
    if abandoned > 0 { logger.info("removed temp files of a stopped process", metadata: ["files": "\(abandoned)"]) }
    try FileManager.default.createDirectory(at: configuration.cdnDirectory, withIntermediateDirectories: true)
    let signer = try makeURLSigner(configuration)
    let cdn = try cdn ?? makeCDNBackend(configuration, logger: logger).client
    return UploadPipeline(
        objects: PostgresObjectStore(client: client),
        uploader: AttachmentUploader(cdn: cdn, concurrency: configuration.uploadConcurrency),
        cdn: cdn, signer: signer, temp: try ProcessTempDirectory(root: configuration.tempDirectory), settings: settings,
        variants: try ImageVariants(directory: configuration.variantDirectory, budget: configuration.variantCacheBytes),
        storeTimeout: configuration.s3?.timeout ?? configuration.requestTimeout, purge: purge
    )
}

/// The configured store: S3 when `configuration.s3` is set, else the local disk.
public func makeCDNBackend(_ configuration: FeedsConfiguration, logger: Logger) throws -> CDNBackend {
    let signer = try makeURLSigner(configuration)
    if let s3 = configuration.s3 { return .s3(S3CDN(configuration: s3, signer: signer, logger: logger)) }
    return .localDisk(LocalDiskCDN(root: configuration.cdnDirectory, signer: signer, logger: logger))
}

/// Signs the `/cdn/{key}` URLs handed to clients, whichever store holds the bytes.
func makeURLSigner(_ configuration: FeedsConfiguration) throws -> URLSigner {
    guard let publicURL = URL(string: configuration.publicURL) else {
        throw ConfigurationError("FEEDS_PUBLIC_URL \(configuration.publicURL) is not a URL")
    }
    return URLSigner(publicURL: publicURL, apiSecret: configuration.apiSecret)
}

/// `/cdn/{key}`: served from disk, or redirected to the store.
func registerCDNRoutes<Context: RequestContext>(
    _ backend: CDNBackend, uploads: UploadPipeline, hot: HotObjects, on router: Router<Context>
) {
    switch backend {
    case .localDisk(let cdn): CDNRoutes(cdn: cdn, variants: uploads.variants, hot: hot).register(on: router)
    case .s3(let cdn): S3RedirectRoutes(cdn: cdn, objects: uploads.objects, variants: uploads.variants).register(on: router)
    }
}

/// The sweeper of abandoned uploads, for the server's loop and `feeds gc`.
func makeSweeper(
    _ configuration: FeedsConfiguration, uploads: UploadPipeline, idempotency: any IdempotencyStore
) -> ObjectSweeper {
    ObjectSweeper(
        objects: uploads.objects, cdn: uploads.cdn, tempDirectory: configuration.tempDirectory,
        unattachedTTL: configuration.unattachedTTL, orphanGrace: configuration.orphanGrace, idempotency: idempotency,
        purge: uploads.purge
    )
}

/// The most body bytes a request may declare under the settings in force: a file and its
/// multipart framing on the upload routes, ten of them with an activity or a comment, 1 MB of JSON
/// elsewhere.
func bodyLimit(_ uploads: UploadPipeline) -> @Sendable (HTTPRequest) -> Int64 {
    let framing: Int64 = 1 << 20
    return { request in
        let path = request.path ?? ""
        let settings = uploads.settings.current
        if path.hasPrefix("/api/v2/uploads/file") { return uploads.streamLimit(settings, imageOnly: false).bytes + framing }
        if path.hasPrefix("/api/v2/uploads/image") { return uploads.streamLimit(settings, imageOnly: true).bytes + framing }
        if path.hasPrefix("/api/v2/feeds/activities") || path.hasPrefix("/api/v2/feeds/comments"), request.method == .post {
            return Int64(CommentDraft.maxAttachments) * uploads.streamLimit(settings).bytes + framing
        }
        return Int64(jsonBodyLimit)
    }
}

/// One sweep, for `feeds gc`: the same sweeper the server runs periodically.
package func sweepOnce(
    _ configuration: FeedsConfiguration, database: PostgresClient.Configuration, logger: Logger
) async throws -> ObjectSweeper.Report {
    let client = PostgresClient(configuration: database, backgroundLogger: logger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        let uploads = try makeUploadPipeline(configuration, client: client, logger: logger)
        return try await recordedSweep(
            makeSweeper(configuration, uploads: uploads, idempotency: PostgresIdempotencyStore(client: client)), trigger: .cli,
            reconciling: true, runs: PostgresAdminStore(client: client), logger: logger)
    }
}
