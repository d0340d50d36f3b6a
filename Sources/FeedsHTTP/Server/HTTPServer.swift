import FeedsAPI
import FeedsAuth
import FeedsCDN
import FeedsCore
import FeedsRealtime
import FeedsServices
import FeedsUploads
import Hummingbird
import Logging
import NIOCore
import OpenAPIRuntime

/// JSON request bodies above this are refused with 413.
let jsonBodyLimit = 1 << 20

/// The HTTP side of the server, over the parts the composition root (`buildApplication`) made:
/// the router with its middlewares, and the channel handlers in front of it.
package struct HTTPServer<Store: ActivityStore>: Sendable {
    package var store: Store
    package var uploads: UploadPipeline
    package var idempotency: any IdempotencyStore
    package var settingsStore: any AppSettingsStore
    package var realtime: Realtime
    package var realtimeEndpoint: RealtimeEndpoint<Store>
    package var authenticator: Authenticator
    package var rateLimiter: RateLimiter
    package var notifications: any NotificationStore
    package var feedGroups: any FeedGroupStore
    package var watches: any WatchStore
    package var members: any MemberStore
    package var pins: any PinStore
    package var polls: any PollStore
    package var views: any FeedViewStore
    package var probe: any DatabaseHealth
    /// The migrations the database has not applied yet, for `/readyz`.
    package var pendingMigrations: @Sendable (Logger) async throws -> [String]
    package var backend: CDNBackend
    package var hot: HotObjects
    /// How long a request's work may take.
    package var requestTimeout: Duration
    /// How long `/readyz` may take.
    package var readinessTimeout: Duration
    /// GetOG's previews, cached (`LinkPreviews`).
    package var linkPreviews: LinkPreviews
    /// The read replicas, when there are any (`FEEDS_READ_DATABASE_URLS`).
    package var replicas: (any ReadRouting)?
    /// Where UpdateApp may point webhooks (`FEEDS_WEBHOOK_ALLOWED_HOSTS`).
    package var webhookAddresses = WebhookAddresses()
    /// Tells this node's task worker that a task was queued (DeleteUsers and the like).
    package var wakeTasks: @Sendable () -> Void = {}
    package var serverName = "feeds"
    /// The open connections, which `channelHandlers` caps.
    let connections = ConnectionGuard.Count()

    package init(
        store: Store, uploads: UploadPipeline, idempotency: any IdempotencyStore, settingsStore: any AppSettingsStore,
        realtime: Realtime, realtimeEndpoint: RealtimeEndpoint<Store>, authenticator: Authenticator, rateLimiter: RateLimiter,
        notifications: any NotificationStore, feedGroups: any FeedGroupStore, watches: any WatchStore,
        members: any MemberStore, pins: any PinStore, polls: any PollStore, views: any FeedViewStore,
        probe: any DatabaseHealth, pendingMigrations: @escaping @Sendable (Logger) async throws -> [String], backend: CDNBackend,
        hot: HotObjects, requestTimeout: Duration, readinessTimeout: Duration, linkPreviews: LinkPreviews
    ) {
        (self.store, self.uploads, self.idempotency, self.settingsStore) = (store, uploads, idempotency, settingsStore)
        (self.realtime, self.realtimeEndpoint, self.authenticator, self.rateLimiter) =
            (realtime, realtimeEndpoint, authenticator, rateLimiter)
        (self.notifications, self.feedGroups, self.watches, self.members, self.pins, self.polls) =
            (notifications, feedGroups, watches, members, pins, polls)
        self.views = views
        (self.probe, self.pendingMigrations, self.backend, self.hot, self.requestTimeout) =
            (probe, pendingMigrations, backend, hot, requestTimeout)
        self.readinessTimeout = readinessTimeout
        self.linkPreviews = linkPreviews
        _ = PrometheusMetrics.registry
        ReceiveBufferReuse.apply()
    }

    /// The router: middlewares in the order they see a request, the operations routes, `/cdn`,
    /// and the API (the replies sent most on hand-written routes, `HandWrittenRoute`).
    package func router() throws -> Router<BasicRequestContext> {
        // Compact JSON: responses are for programs, and pretty-printing costs time on every read. No
        // generated type holds a Date: times are integers on the wire (`WireTime`).
        let openAPIConfiguration = Configuration(jsonEncodingOptions: [.withoutEscapingSlashes])
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(settings: uploads.settings))
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: CDNSafetyHeadersMiddleware())
        router.add(middleware: APIErrorMiddleware())
        router.add(middleware: AcceptMiddleware())
        router.add(middleware: DatabaseDownMiddleware(probe: probe))
        router.add(middleware: AuthMiddleware(authenticator: authenticator))
        router.add(middleware: RateLimitMiddleware(limiter: rateLimiter))
        router.add(middleware: JSONBodyLimitMiddleware(limit: jsonBodyLimit))
        if let replicas { router.add(middleware: ReadRoutingMiddleware(replicas: replicas)) }
        // Multipart bodies go to our scanner (memchr), decoded with the same configuration.
        router.add(middleware: FastMultipartMiddleware(configuration: openAPIConfiguration))
        OperationsRoutes(
            pendingMigrations: pendingMigrations, cdn: uploads.cdn, probe: probe, readinessTimeout: readinessTimeout
        ).register(on: router)
        switch backend {
        case .localDisk(let cdn): CDNRoutes(cdn: cdn, variants: uploads.variants, hot: hot).register(on: router)
        case .s3(let cdn): S3RedirectRoutes(cdn: cdn, objects: uploads.objects, variants: uploads.variants).register(on: router)
        }
        let events = Events(realtime: realtime, urls: uploads.urls, store: store)
        var api = FeedsAPIImplementation(
            store: store, uploads: uploads, idempotency: Idempotency(store: idempotency), settingsStore: settingsStore,
            realtime: realtime, rateLimiter: rateLimiter, notifications: notifications,
            notificationChanges: NotificationChanges(store: notifications) { events.notificationFeed($0, $1) },
            feedGroups: FeedGroupService(store: feedGroups, settings: uploads.settings), watches: watches,
            memberStore: members, pinStore: pins, pollStore: polls, feedViews: views, linkPreviews: linkPreviews,
            authenticator: authenticator, deadline: requestTimeout)
        api.webhookAddresses = webhookAddresses
        api.wakeTasks = wakeTasks
        let pages = FeedPageRoutes(api: api, bodyLimit: jsonBodyLimit, deadline: requestTimeout)
        let creates = AddActivityRoute(api: api, bodyLimit: jsonBodyLimit, deadline: requestTimeout)
        let transport = GeneratedTransport(
            router: router, handWritten: type(of: pages).routes + type(of: creates).routes, deadline: requestTimeout)
        try api.registerHandlers(on: transport, serverURL: Servers.Server1.url(), configuration: openAPIConfiguration)
        pages.register(on: router)
        creates.register(on: router, generated: transport.generated)
        return router
    }

    /// A new connection's handlers, in front of the router: the connection cap first, so that
    /// every response passes it (the fast path's too), then the client's address, the
    /// WebSocket upgrade, the body limits, and the answers made from memory (`FastPath`).
    package func channelHandlers(
        headerTimeout: Duration, maxConnections: Int, proxies: TrustedProxies, logger: Logger
    ) -> [any RemovableChannelHandler] {
        var handlers: [any RemovableChannelHandler] = [
            ConnectionGuard(headerTimeout: TimeAmount(headerTimeout), maxConnections: maxConnections, count: connections),
            RequestHeadNormalizer(proxies: proxies),
            MainPortUpgrade(endpoint: realtimeEndpoint, logger: logger),
            LargeReadsHandler(), ExpectContinueHandler(limit: bodyLimit(uploads)),
        ]
        var answers: [any FastAnswer] = [
            LinkPreviewFastAnswer(previews: linkPreviews, authenticator: authenticator, limiter: rateLimiter)
        ]
        if case .localDisk(let cdn) = backend { answers.insert(CDNFastAnswer(cdn: cdn, hot: hot), at: 0) }
        handlers.append(FastPath(answers: answers, serverName: serverName))
        return handlers
    }
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
