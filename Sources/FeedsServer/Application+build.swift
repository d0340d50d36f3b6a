import FeedsAPI
import FeedsAuth
import FeedsCDN
import FeedsCore
import FeedsHTTP
import FeedsPostgres
import FeedsRealtime
import FeedsServices
import FeedsUploads
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OpenAPIRuntime
import PostgresNIO
import ServiceLifecycle

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
    let database = configuration.pooled(database)
    let client = PostgresClient(configuration: database.named("feeds"), backgroundLogger: logger)
    let replicas =
        configuration.readDatabaseURLs.isEmpty
        ? nil
        : ReadReplicas(
            primary: client,
            replicas: try configuration.readDatabaseURLs.map { configuration.pooled(try DatabaseURL.configuration($0)) },
            maxLag: configuration.readMaxLag, pollInterval: configuration.readPollInterval, logger: logger)
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
    let notifications = PostgresNotificationStore(client: client, prepared: preparedClient)
    let backend = try makeCDNBackend(configuration, logger: logger)
    let uploads = try makeUploadPipeline(
        configuration, client: client, settings: settings, cdn: wrapCDN.map { $0(backend.client) } ?? backend.client,
        purge: { hot.purge($0.rawValue) }, logger: logger)

    // Real time: this node's sockets, and the events of every node's writes through PostgreSQL.
    let hub = RealtimeHub()
    let bus = PostgresEventBus(client: client, listening: database.named("feeds-listener"), logger: logger)
    bus.onReceive(
        deliver: { hub.deliver($0, followers: $1) },
        watched: { hub.watchedFeeds },
        watch: { connectionID, fid, userID, on in hub.watch(connectionID: connectionID, fid: fid, userID: userID, on: on) },
        revoke: { fid, userID in hub.revoke(fid: fid, userID: userID) },
        gap: { hub.resyncAll(reason: "events may have been missed; reconnect and re-sync") })
    // Webhooks: every event also goes to the app's hooks, through the outbox.
    let webhookSender = HTTPWebhookSender(
        apiKey: configuration.apiKey, apiSecret: configuration.apiSecret, allowedHosts: configuration.webhookHosts,
        logger: logger)
    let webhookOutbox = PostgresWebhookOutbox(client: client, retryFor: configuration.webhookDelivery.retryFor)
    let dispatcher = WebhookDispatcher(
        outbox: webhookOutbox, settings: settings, sender: webhookSender, options: configuration.webhookDelivery,
        logger: logger)
    let webhooks = WebhookPublisher(outbox: webhookOutbox, settings: settings, logger: logger) { dispatcher.wake() }
    let realtime = Realtime(hub: hub, publisher: EventPublishers([bus, webhooks])) { connectionID, fid, userID, on in
        try await bus.forwardWatch(connectionID: connectionID, fid: fid, userID: userID, on: on)
    }
    let realtimeEndpoint = RealtimeEndpoint(
        hub: hub, authenticator: authenticator, store: store, authTimeout: configuration.webSocketAuthTimeout,
        pending: PendingSockets(
            limit: configuration.webSocketPending.limit, perAddress: configuration.webSocketPending.perAddress),
        explain: ErrorClassifier.classify)
    let realtimeServer = RealtimeServer(
        endpoint: realtimeEndpoint,
        host: configuration.host, port: configuration.effectiveWebSocketPort, maxConnections: configuration.maxConnections,
        logger: logger, onServerRunning: onWebSocketRunning)
    let linkFetcher = LinkFetcher(allowedHosts: configuration.linkPreviewHosts)
    var server = HTTPServer(
        store: store, uploads: uploads, idempotency: idempotencyStore, settingsStore: settingsStore, realtime: realtime,
        realtimeEndpoint: realtimeEndpoint, authenticator: authenticator, rateLimiter: rateLimiter,
        notifications: notifications, feedGroups: PostgresFeedGroupStore(client: client),
        watches: PostgresWatchStore(client: client), members: PostgresMemberStore(client: client),
        pins: PostgresPinStore(client: client), polls: PostgresPollStore(client: client),
        views: PostgresFeedViewStore(client: client), probe: probe,
        pendingMigrations: { try await migrator.pending(migrations, logger: $0) }, backend: backend, hot: hot,
        requestTimeout: configuration.requestTimeout, readinessTimeout: configuration.readinessTimeout,
        linkPreviews: LinkPreviews(
            store: PostgresLinkPreviewStore(client: client), fetcher: linkFetcher,
            images: PreviewImages(fetcher: linkFetcher, pipeline: uploads),
            recent: RecentPreviews(lifetime: configuration.linkPreviewMemory)))
    server.replicas = replicas
    server.webhookAddresses = WebhookAddresses(allowedHosts: configuration.webhookHosts)
    // Queued tasks: a person's erasure, restoration and export.
    var taskHandlers: [String: any TaskHandler] = [UserRestorer.kind: UserRestorer(store: store)]
    let eraser = UserEraser(store: store) { keys in
        try await uploads.erase(keys.compactMap(ObjectKey.init(rawValue:)), logger: logger)
    }
    for kind in UserEraser.kinds { taskHandlers[kind] = eraser }
    let exporter = UserExporter(
        client: client, directory: uploads.tempDirectory,
        publish: { file, name, owner in try await uploads.storeExport(file, fileName: name, owner: owner, logger: logger) },
        sign: { key in ObjectKey(rawValue: key).map(uploads.urls.url(for:)) ?? "" })
    for kind in UserExporter.kinds { taskHandlers[kind] = exporter }
    let taskWorker = TaskWorker(
        tasks: PostgresTasks(client: client), handlers: taskHandlers, options: configuration.taskWorker, logger: logger)
    server.wakeTasks = { taskWorker.wake() }
    let http = server
    let router = try http.router()
    let adminStore = PostgresAdminStore(client: client)
    let sweeper = makeSweeper(configuration, uploads: uploads, idempotency: idempotencyStore)
    try makeAdminConsole(
        configuration, client: client, store: adminStore, settingsStore: settingsStore, uploads: uploads, sweeper: sweeper,
        authenticator: authenticator, webhooks: webhookOutbox
    ).register(on: router)

    let migrated = StartGate()
    var app = Application(
        router: router,
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: http.channelHandlers(
                    headerTimeout: configuration.headerTimeout, maxConnections: configuration.maxConnections,
                    proxies: proxies, logger: logger))),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: http.serverName),
        services: services + [
            client, preparedClient, probe,
        ] + (replicas?.services ?? []) + [
            realtimeServer, HeapTrimService(interval: configuration.heapTrimInterval),
            HealthCheckService(
                hub: hub, interval: configuration.healthCheckInterval, pingInterval: configuration.webSocketPingInterval),
        ] + [
            AfterGate(gate: migrated, service: bus),
            webhookSender, AfterGate(gate: migrated, service: dispatcher), AfterGate(gate: migrated, service: taskWorker),
            AfterGate(
                gate: migrated,
                service: AppSettingsListener(
                    client: client, cache: settings, refreshInterval: configuration.settingsRefreshInterval, logger: logger,
                    alsoReload: [
                        DeactivatedUsersReload(store: store, users: authenticator.deactivated, logger: logger) {
                            hub.close(users: $0, reason: "the user was deactivated")
                        }.callAsFunction,
                        NarrowedReadsReload(
                            client: client, cache: settings, logger: logger, watched: { hub.watchedFeeds },
                            revoke: { hub.revoke(fid: $0, allBut: $1) }
                        ).callAsFunction,
                    ])),
            AfterGate(
                gate: migrated,
                service: SweepService(
                    sweeper: sweeper, runs: adminStore, interval: configuration.gcInterval, logger: logger)),
        ]
            + [
                AfterGate(
                    gate: migrated,
                    service: ExpiryService(
                        store: store, notifications: notifications, interval: configuration.expiryInterval, logger: logger))
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

extension FeedsConfiguration {
    /// A database's connection with the server's pool options: the primary's and each replica's.
    func pooled(_ database: PostgresClient.Configuration) -> PostgresClient.Configuration {
        var database = database
        database.options.maximumConnections = databaseConnections
        // A statement that runs longer fails at the server; a database that does not answer fails the connect.
        database.options.connectTimeout = databaseConnectTimeout
        database.options.additionalStartupParameters.append(
            ("statement_timeout", String(databaseStatementTimeout.components.seconds * 1000)))
        // No JIT: it compiles a statement whose plan looks costly, and a ranked view page (a walk that
        // stops at 1,000 rows, planned as if it read them all) spent 850 ms compiling a 26 ms read.
        database.options.additionalStartupParameters.append(("jit", "off"))
        return database
    }
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
