import ArgumentParser
import Configuration
import FeedsHTTP
import FeedsPostgres
import FeedsServer
import Foundation
import Logging
import PostgresNIO

/// The settings every command reads: flags first, then the environment, then the defaults.
struct SettingsOptions: ParsableArguments {
    @Option(help: "Address to listen on (FEEDS_HOST, default 127.0.0.1).") var host: String?
    @Option(help: "Port to listen on (FEEDS_PORT, default 3030).") var port: Int?
    @Option(help: "Port of the real-time WebSocket (FEEDS_WS_PORT; default 8800 with port 3030, else port + 1).")
    var wsPort: Int?
    @Option(name: .customLong("api-key"), help: "The app's API key (FEEDS_API_KEY).") var apiKey: String?
    @Option(name: .customLong("api-secret"), help: "The app's API secret (FEEDS_API_SECRET).") var apiSecret: String?
    @Option(name: .customLong("database-url"), help: "PostgreSQL URL (DATABASE_URL); without one, an embedded cluster.")
    var databaseURL: String?
    @Option(
        name: .customLong("database-connections"),
        help: "Connections in each of the two database pools (FEEDS_DATABASE_CONNECTIONS, default 4 per core).")
    var databaseConnections: Int?
    @Option(name: .customLong("data-dir"), help: "Where the server keeps its files (FEEDS_DATA_DIR, default .feeds).")
    var dataDir: String?
    @Option(name: .customLong("public-url"), help: "Base of URLs handed to clients (FEEDS_PUBLIC_URL).") var publicURL: String?
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error (FEEDS_LOG_LEVEL).")
    var logLevel: String?
    @Option(name: .customLong("upload-concurrency"), help: "Uploads in flight at once (FEEDS_UPLOAD_CONCURRENCY, default 8).")
    var uploadConcurrency: Int?
    @Option(
        name: .customLong("unattached-ttl"),
        help: "Seconds an upload may stay unattached; 0 keeps it (FEEDS_UNATTACHED_TTL, default 86400).")
    var unattachedTTL: Int?
    @Option(
        name: .customLong("variant-cache-mb"),
        help: "Disk for resized images, least recently used out first (FEEDS_VARIANT_CACHE_MB, default 1024).")
    var variantCacheMB: Int?
    @Option(
        name: .customLong("hot-cache-mb"),
        help: "Memory for small stored files (up to 256 KB) served from memory; 0 turns it off (FEEDS_HOT_CACHE_MB, default 64).")
    var hotCacheMB: Int?
    @Option(
        name: .customLong("settings-refresh"),
        help:
            "Seconds between reloads of the app settings in case a change notification was lost (FEEDS_SETTINGS_REFRESH, default 30)."
    )
    var settingsRefresh: Int?
    @Option(help: "Where uploads go: local or s3 (FEEDS_CDN, default local).") var cdn: String?
    @Option(name: .customLong("s3-endpoint"), help: "S3-compatible store URL (FEEDS_S3_ENDPOINT, default AWS).")
    var s3Endpoint: String?
    @Option(name: .customLong("s3-bucket"), help: "The bucket (FEEDS_S3_BUCKET).") var s3Bucket: String?
    @Option(name: .customLong("s3-region"), help: "The bucket's region (FEEDS_S3_REGION, default us-east-1).")
    var s3Region: String?
    @Option(name: .customLong("s3-path-style"), help: "true or false (FEEDS_S3_PATH_STYLE, default true with an endpoint).")
    var s3PathStyle: String?

    /// The flags as the highest-priority configuration provider.
    private var flags: InMemoryProvider {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        func set(_ key: AbsoluteConfigKey, _ value: String?, secret: Bool = false) {
            if let value { values[key] = ConfigValue(.string(value), isSecret: secret) }
        }
        // Numbers as numbers: the reader does not turn an in-memory string into an int.
        func set(_ key: AbsoluteConfigKey, _ value: Int?) {
            if let value { values[key] = ConfigValue(.int(value), isSecret: false) }
        }
        set("feeds.host", host)
        set("feeds.port", port)
        set("feeds.ws.port", wsPort)
        set("feeds.api.key", apiKey)
        set("feeds.api.secret", apiSecret, secret: true)
        set("database.url", databaseURL, secret: true)
        set("feeds.database.connections", databaseConnections)
        set("feeds.data.dir", dataDir)
        set("feeds.public.url", publicURL)
        set("feeds.log.level", logLevel)
        set("feeds.upload.concurrency", uploadConcurrency)
        set("feeds.unattached.ttl", unattachedTTL)
        set("feeds.variant.cache.mb", variantCacheMB)
        set("feeds.hot.cache.mb", hotCacheMB)
        set("feeds.settings.refresh", settingsRefresh)
        set("feeds.cdn", cdn)
        set("feeds.s3.endpoint", s3Endpoint)
        set("feeds.s3.bucket", s3Bucket)
        set("feeds.s3.region", s3Region)
        set("feeds.s3.path.style", s3PathStyle)
        return InMemoryProvider(name: "flags", values: values)
    }

    /// Resolves the configuration; without a key and secret, the data directory's dev pair.
    func resolve() throws -> (FeedsConfiguration, generatedCredentials: Bool) {
        let reader = ConfigReader(providers: [
            flags,
            EnvironmentVariablesProvider(
                secretsSpecifier: .specific([
                    "FEEDS_API_SECRET", "DATABASE_URL", "FEEDS_READ_DATABASE_URLS", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                ])),
        ])
        let dataDirectory = URL(fileURLWithPath: reader.string(forKey: "feeds.data.dir", default: ".feeds"))
        var key = reader.string(forKey: "feeds.api.key")
        var secret = reader.string(forKey: "feeds.api.secret", isSecret: true)
        var generated = false
        if key == nil || secret == nil {
            guard key == nil, secret == nil else {
                throw ValidationError("set both FEEDS_API_KEY and FEEDS_API_SECRET, or neither for a generated dev pair")
            }
            let credentials = try DevCredentials.loadOrCreate(in: dataDirectory)
            (key, secret, generated) = (credentials.apiKey, credentials.apiSecret, true)
        }
        let levelName = reader.string(forKey: "feeds.log.level", default: "info")
        guard let level = Logger.Level(rawValue: levelName) else {
            throw ValidationError("unknown log level \(levelName)")
        }
        let ttl = reader.int(forKey: "feeds.unattached.ttl", default: 24 * 3600)
        guard ttl >= 0 else { throw ValidationError("FEEDS_UNATTACHED_TTL must be 0 (keep) or a number of seconds") }
        var configuration = FeedsConfiguration(
            host: reader.string(forKey: "feeds.host", default: "127.0.0.1"),
            port: reader.int(forKey: "feeds.port", default: 3030),
            apiKey: key!,
            apiSecret: secret!,
            databaseURL: reader.string(forKey: "database.url", isSecret: true),
            dataDirectory: dataDirectory,
            publicURL: reader.string(forKey: "feeds.public.url"),
            logLevel: level,
            uploadConcurrency: max(1, reader.int(forKey: "feeds.upload.concurrency", default: 8)),
            unattachedTTL: ttl == 0 ? nil : .seconds(ttl)
        )
        configuration.s3 = try Self.s3Configuration(reader)
        configuration.rateLimits = try Self.rateLimits(reader)
        configuration.trustedProxies = try Self.trustedProxies(reader)
        let connections = reader.int(
            forKey: "feeds.database.connections", default: FeedsConfiguration.defaultDatabaseConnections)
        guard connections > 0 else { throw ValidationError("FEEDS_DATABASE_CONNECTIONS must be a positive number") }
        configuration.databaseConnections = connections
        let variantCache = reader.int(forKey: "feeds.variant.cache.mb", default: 1024)
        guard variantCache > 0 else { throw ValidationError("FEEDS_VARIANT_CACHE_MB must be a positive number of megabytes") }
        configuration.variantCacheBytes = Int64(variantCache) << 20
        let hotCache = reader.int(forKey: "feeds.hot.cache.mb", default: 64)
        guard hotCache >= 0 else { throw ValidationError("FEEDS_HOT_CACHE_MB must be 0 or a number of megabytes") }
        configuration.hotObjectBytes = hotCache << 20
        let refresh = reader.int(forKey: "feeds.settings.refresh", default: 30)
        guard refresh > 0 else { throw ValidationError("FEEDS_SETTINGS_REFRESH must be a positive number of seconds") }
        configuration.settingsRefreshInterval = .seconds(refresh)
        let maxConnections = reader.int(forKey: "feeds.max.connections", default: configuration.maxConnections)
        guard maxConnections > 0 else { throw ValidationError("FEEDS_MAX_CONNECTIONS must be a positive number") }
        configuration.maxConnections = maxConnections
        let pending = reader.int(forKey: "feeds.ws.pending", default: configuration.webSocketPending.limit)
        let pendingPerAddress = reader.int(
            forKey: "feeds.ws.pending.per.address", default: configuration.webSocketPending.perAddress)
        guard pending > 0, pendingPerAddress > 0 else {
            throw ValidationError("FEEDS_WS_PENDING and FEEDS_WS_PENDING_PER_ADDRESS must be positive numbers")
        }
        configuration.webSocketPending = (pending, pendingPerAddress)
        if let hosts = reader.string(forKey: "feeds.og.allowed.hosts") {
            configuration.linkPreviewHosts = Set(
                hosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
        }
        let memory = reader.int(forKey: "feeds.og.memory", default: Int(configuration.linkPreviewMemory))
        guard memory >= 0 else { throw ValidationError("FEEDS_OG_MEMORY must be 0 (off) or a number of seconds") }
        configuration.linkPreviewMemory = TimeInterval(memory)
        if let hosts = reader.string(forKey: "feeds.webhook.allowed.hosts") {
            configuration.webhookHosts = Set(
                hosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
        }
        let retryFor = reader.int(forKey: "feeds.webhook.retry.for", default: 86_400)
        let maxBackoff = reader.int(forKey: "feeds.webhook.max.backoff", default: 60)
        guard retryFor > 0, maxBackoff > 0 else {
            throw ValidationError("FEEDS_WEBHOOK_RETRY_FOR and FEEDS_WEBHOOK_MAX_BACKOFF must be positive numbers of seconds")
        }
        configuration.webhookDelivery.retryFor = .seconds(retryFor)
        configuration.webhookDelivery.maxBackoff = .seconds(maxBackoff)
        if let webSocketPort = reader.int(forKey: "feeds.ws.port") {
            guard (0...65535).contains(webSocketPort) else { throw ValidationError("FEEDS_WS_PORT must be a port number") }
            configuration.webSocketPort = webSocketPort
        }
        if let urls = reader.string(forKey: "feeds.read.database.urls", isSecret: true) {
            configuration.readDatabaseURLs = urls.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            for url in configuration.readDatabaseURLs { _ = try DatabaseURL.configuration(url) }
        }
        let maxLag = reader.int(forKey: "feeds.read.max.lag", default: 5)
        let poll = reader.int(forKey: "feeds.read.poll.ms", default: 100)
        guard maxLag > 0, poll > 0 else {
            throw ValidationError("FEEDS_READ_MAX_LAG (seconds) and FEEDS_READ_POLL_MS must be positive numbers")
        }
        (configuration.readMaxLag, configuration.readPollInterval) = (.seconds(maxLag), .milliseconds(poll))
        let fanoutWorkers = reader.int(forKey: "feeds.fanout.workers", default: configuration.fanoutWorkers)
        guard fanoutWorkers >= 0 else { throw ValidationError("FEEDS_FANOUT_WORKERS must be 0 or a number of workers") }
        configuration.fanoutWorkers = fanoutWorkers
        for (key, name, keyPath) in [
            ("feeds.request.timeout", "FEEDS_REQUEST_TIMEOUT", \FeedsConfiguration.requestTimeout),
            ("feeds.readiness.timeout", "FEEDS_READINESS_TIMEOUT", \.readinessTimeout),
            ("feeds.database.timeout", "FEEDS_DATABASE_TIMEOUT", \.databaseStatementTimeout),
            ("feeds.database.connect.timeout", "FEEDS_DATABASE_CONNECT_TIMEOUT", \.databaseConnectTimeout),
            ("feeds.drain.timeout", "FEEDS_DRAIN_TIMEOUT", \.drainTimeout),
            ("feeds.header.timeout", "FEEDS_HEADER_TIMEOUT", \.headerTimeout),
            ("feeds.ws.health.interval", "FEEDS_WS_HEALTH_INTERVAL", \.healthCheckInterval),
            ("feeds.heap.trim.interval", "FEEDS_HEAP_TRIM_INTERVAL", \.heapTrimInterval),
        ] {
            let seconds = reader.int(forKey: ConfigKey(key), default: Int(configuration[keyPath: keyPath].components.seconds))
            guard seconds > 0 else { throw ValidationError("\(name) must be a positive number of seconds") }
            configuration[keyPath: keyPath] = .seconds(seconds)
        }
        return (configuration, generated)
    }
}

extension FeedsConfiguration {
    /// A logger at the configured level.
    var logger: Logger {
        var logger = Logger(label: "feeds", factory: DeferredMetadataLogHandler.init(label:))
        logger.logLevel = logLevel
        return logger
    }

    /// The database to use: `DATABASE_URL`, or the embedded cluster (started here).
    func openDatabase() async throws -> (PostgresClient.Configuration, EmbeddedPostgres?) {
        if let databaseURL {
            return (try DatabaseURL.configuration(databaseURL), nil)
        }
        let embedded = try await EmbeddedPostgres.start(in: dataDirectory.appendingPathComponent("postgres"), logger: logger)
        return (embedded.configuration, embedded)
    }
}
