import FeedsAdmin
import FeedsCDN
import FeedsCore
import FeedsPostgres
import Foundation
import Logging

/// Everything `feeds serve` needs, read once at start from the environment and flags.
public struct FeedsConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var apiKey: String
    public var apiSecret: String
    /// `DATABASE_URL`; nil starts the embedded cluster under the data directory.
    public var databaseURL: String?
    /// Streaming replicas of that database for reads (`FEEDS_READ_DATABASE_URLS`, comma-separated);
    /// none sends every read to the primary.
    public var readDatabaseURLs: [String] = []
    /// How far behind the primary a replica may be and still answer reads (`FEEDS_READ_MAX_LAG`).
    public var readMaxLag: Duration = .seconds(5)
    /// How often replicas are asked how far they have replayed (`FEEDS_READ_POLL_MS`).
    public var readPollInterval: Duration = .milliseconds(100)
    /// Where the server keeps its own files (`.feeds`): the embedded cluster, dev credentials.
    public var dataDirectory: URL
    /// The base of URLs handed out to clients.
    public var publicURL: String
    public var logLevel: Logger.Level
    /// Uploads in flight at once across all requests (`FEEDS_UPLOAD_CONCURRENCY`).
    public var uploadConcurrency: Int
    /// How long a standalone upload may stay unattached before gc deletes it; nil keeps it (`FEEDS_UNATTACHED_TTL`).
    public var unattachedTTL: Duration?
    /// How often the server sweeps (one node at a time).
    public var gcInterval: Duration
    /// How often expired activities (stories) are deleted; reads leave them out from the moment they expire.
    public var expiryInterval: Duration = .seconds(30)
    /// The disk budget of resized images (and S3 originals fetched to resize), `FEEDS_VARIANT_CACHE_MB`.
    public var variantCacheBytes: Int64 = 1024 << 20
    /// The memory for small stored objects (up to 256 KB each) served from memory, `FEEDS_HOT_CACHE_MB`; 0 turns it off.
    public var hotObjectBytes: Int = 64 << 20
    /// How often a node reloads the app settings in case it missed a notification.
    public var settingsRefreshInterval: Duration = .seconds(30)
    /// Connections in each of the server's two PostgreSQL pools (`FEEDS_DATABASE_CONNECTIONS`).
    /// Four per core by default: beyond that, backends only take turns on the same cores and
    /// latency grows (bench/README.md has the figures). A database on a larger machine wants more.
    public var databaseConnections: Int = Self.defaultDatabaseConnections
    public static var defaultDatabaseConnections: Int { 4 * ProcessInfo.processInfo.activeProcessorCount }
    /// The most an API request may take before it is answered 503 with a Retry-After, whatever
    /// the database or the store are doing (`FEEDS_REQUEST_TIMEOUT`); multipart uploads excepted.
    public var requestTimeout: Duration = .seconds(10)
    /// The most `/readyz` may take before it answers 503 (`FEEDS_READINESS_TIMEOUT`): load
    /// balancers poll it with short timeouts of their own.
    public var readinessTimeout: Duration = .seconds(1)
    /// Hosts GetOG may fetch from wherever they resolve, on any port (`FEEDS_OG_ALLOWED_HOSTS`,
    /// comma-separated): an intranet's, or the tests' loopback. Every other host must be public.
    public var linkPreviewHosts: Set<String> = []
    /// How long a node remembers a preview it read, answering GetOG for it from memory
    /// (`FEEDS_OG_MEMORY`, seconds; 0 turns it off).
    public var linkPreviewMemory: TimeInterval = 300
    /// Hosts the app's webhooks may point at wherever they resolve (`FEEDS_WEBHOOK_ALLOWED_HOSTS`,
    /// comma-separated): a backend on the same network. Every other host must be public.
    public var webhookHosts: Set<String> = []
    /// How webhook deliveries are retried (`FEEDS_WEBHOOK_RETRY_FOR`: a day;
    /// `FEEDS_WEBHOOK_MAX_BACKOFF`: a minute between attempts at most).
    public var webhookDelivery = WebhookDispatcher.Options()
    /// How queued tasks (DeleteUsers, DeleteFeedUserData, RestoreUsers) are run and retried.
    public var taskWorker = TaskWorker.Options()
    /// The most one SQL statement may run (`FEEDS_DATABASE_TIMEOUT`, PostgreSQL's `statement_timeout`).
    public var databaseStatementTimeout: Duration = .seconds(5)
    /// The most opening a database connection may take (`FEEDS_DATABASE_CONNECT_TIMEOUT`).
    public var databaseConnectTimeout: Duration = .seconds(3)
    /// How old an object in the store with no record must be before gc deletes it: an upload
    /// records its object before the bytes go, so this only guards against clocks and surprises.
    public var orphanGrace: Duration = .seconds(3600)
    /// How long a connection may take to send a request head, after it opens and after each
    /// response (`FEEDS_HEADER_TIMEOUT`); it also ends idle keep-alive connections.
    public var headerTimeout: Duration = .seconds(10)
    /// The most connections a node keeps open at once (`FEEDS_MAX_CONNECTIONS`).
    public var maxConnections: Int = 10_000
    /// How long SIGTERM waits for requests in flight before the server stops anyway (`FEEDS_DRAIN_TIMEOUT`).
    public var drainTimeout: Duration = .seconds(30)
    /// Fan-out workers on this node, copying posts into followers' timelines
    /// (`FEEDS_FANOUT_WORKERS`); 0 leaves the queue to other nodes.
    public var fanoutWorkers: Int = 2
    /// How often freed heap is given back to the system (`HeapTrimService`).
    public var heapTrimInterval: Duration = .seconds(20)
    /// The port of the real-time WebSocket (`FEEDS_WS_PORT`; 0 picks a free one): Stream's client
    /// SDKs dial 8800 for a server on 3030, so that is the default then, else the HTTP port + 1.
    public var webSocketPort: Int? = nil
    /// How often every socket gets a `health.check` (`FEEDS_WS_HEALTH_INTERVAL`).
    public var healthCheckInterval: Duration = .seconds(10)
    /// How long a socket may stay quiet before a ping it must answer; one unanswered closes it.
    public var webSocketPingInterval: Duration = .seconds(30)
    /// How long a new connection to the WebSocket may take to upgrade and send its auth message.
    public var webSocketAuthTimeout: Duration = .seconds(10)
    /// WebSocket connections that have not authenticated yet, in all and from one address
    /// (`FEEDS_WS_PENDING`, `FEEDS_WS_PENDING_PER_ADDRESS`): past the first, the oldest is
    /// closed to make room; past the second, the new one.
    public var webSocketPending = (limit: 1_000, perAddress: 100)

    /// The WebSocket port in effect.
    public var effectiveWebSocketPort: Int { webSocketPort ?? (port == 3030 ? 8800 : port == 0 ? 0 : port + 1) }

    /// The S3-compatible store for uploads (`FEEDS_CDN=s3`); nil keeps them on the local disk.
    public var s3: S3Configuration? = nil
    /// The admin console's clock and session lifetimes (the tests set a clock of their own).
    public var admin = AdminConsoleOptions()
    /// Requests per window for each class of operation and each caller (`FEEDS_RATE_LIMIT_*`).
    public var rateLimits = RateLimits()
    /// The time the rate limits' windows go by (the tests move one by hand).
    public var rateLimitClock: @Sendable () -> Date = { Date() }
    /// The load balancers in front of the server, whose `X-Forwarded-For` names the client
    /// (`FEEDS_TRUSTED_PROXIES`, addresses or CIDR ranges).
    public var trustedProxies: [String] = []

    public init(
        host: String = "127.0.0.1", port: Int = 3030, apiKey: String, apiSecret: String, databaseURL: String? = nil,
        dataDirectory: URL = URL(fileURLWithPath: ".feeds"), publicURL: String? = nil, logLevel: Logger.Level = .info,
        uploadConcurrency: Int = 8, unattachedTTL: Duration? = .seconds(24 * 3600), gcInterval: Duration = .seconds(600)
    ) {
        self.host = host
        self.port = port
        self.apiKey = apiKey
        self.apiSecret = apiSecret
        self.databaseURL = databaseURL
        self.dataDirectory = dataDirectory
        self.publicURL = publicURL ?? "http://\(host):\(port)"
        self.logLevel = logLevel
        self.uploadConcurrency = uploadConcurrency
        self.unattachedTTL = unattachedTTL
        self.gcInterval = gcInterval
    }

    /// Where uploads wait while they are checked: beside the CDN, so storing one is a rename.
    public var tempDirectory: URL { dataDirectory.appendingPathComponent("tmp") }
    /// Resized images, least recently used out first.
    public var variantDirectory: URL { dataDirectory.appendingPathComponent("variants") }
    /// The local CDN's objects.
    public var cdnDirectory: URL { dataDirectory.appendingPathComponent("cdn") }
}
