import AsyncHTTPClient
import FeedsAuth
import FeedsCore
import FeedsHTTP
import FeedsPostgres
import FeedsServer
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import PostgresNIO
import ServiceLifecycle

/// The real server on a free port over a fresh database, and an HTTP client for it.
public struct TestServer: Sendable {
    public let baseURL: String
    /// `ws://…/api/v2/connect`, on the WebSocket port.
    public let webSocketURL: String
    public let apiKey: String
    public let authenticator: Authenticator
    /// A client on the server's database, for checking what was stored.
    public let database: PostgresClient
    /// The configuration the server runs with (its data directory holds the CDN and temp files).
    public let configuration: FeedsConfiguration
    /// The server's database as a `DATABASE_URL`, for a second node on the same database.
    public let databaseURL: String
    /// Where uploads go; for `.s3`, `bucket` is this server's own.
    public let backend: Backend
    public let bucket: TestBucket?

    public static let apiKey = "test-key"
    public static let apiSecret = "test-secret-0123456789abcdef0123456789abcdef"

    /// Starts the server, runs `body`, and shuts the server down however `body` ends. `backend`
    /// picks the store (`.s3`: a fresh bucket on the test store, emptied and removed afterwards);
    /// `configure` adjusts the configuration; `cdn` wraps the store (to make storage fail);
    /// `logger` is the server's (a test reads what it logs).
    public static func run(
        backend: Backend = .local,
        replicated: Bool = false,
        configure: @Sendable (inout FeedsConfiguration) -> Void = { _ in },
        cdn: (@Sendable (any CDNClient) -> any CDNClient)? = nil,
        logger: Logger = TestDatabase.logger,
        _ body: @Sendable (TestServer) async throws -> Void
    ) async throws {
        let dataDirectory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("feeds-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDirectory) }
        let bucket = backend == .s3 ? try await TestBucket.create() : nil
        let result: Result<Void, any Error>
        do {
            result = .success(
                // On the replicated pair the server migrates its database itself: one template
                // per process serves the main cluster only.
                try await TestDatabase.with(
                    migrated: !replicated,
                    cluster: replicated ? "FEEDS_TEST_REPLICATED_DATABASE_URL" : "FEEDS_TEST_DATABASE_URL"
                ) { database, client in
                    let replicaURL = try replicated ? TestDatabase.replicaURL(of: database) : nil
                    // The port is chosen before binding, so that the URLs the server hands out name it; another
                    // socket may take it meanwhile, so a server that cannot bind is tried again on a new one.
                    for attempt in 1...5 {
                        var configuration = FeedsConfiguration(
                            host: "127.0.0.1", port: try freeLoopbackPort(), apiKey: apiKey, apiSecret: apiSecret,
                            dataDirectory: dataDirectory
                        )
                        configuration.s3 = bucket?.configuration
                        configuration.webSocketPort = 0
                        // Dozens of servers run at once against one cluster: small pools keep them
                        // all under its connection limit (a test may set more).
                        configuration.databaseConnections = 3
                        // A busy machine may take seconds over a request; deadline tests set their own.
                        configuration.requestTimeout = .seconds(120)
                        configuration.readinessTimeout = .seconds(120)
                        // Dozens of servers share this process's heap: one trim each every 20 s
                        // would walk it dozens of times; `make bench` measures the trim.
                        configuration.heapTrimInterval = .seconds(3600)
                        configuration.readDatabaseURLs = replicaURL.map { [$0] } ?? []
                        configure(&configuration)
                        let setting = Setting(backend: backend, bucket: bucket, wrap: cdn, logger: logger)
                        if try await serve(configuration, database: database, client: client, setting, body) { return }
                        if attempt == 5 { throw ServerDidNotStart() }
                    }
                })
        } catch {
            result = .failure(error)
        }
        if case .failure = result { try? await bucket?.destroy() } else { try await bucket?.destroy() }
        try result.get()
    }

    /// What `run` was asked for, handed to `serve`.
    private struct Setting: Sendable {
        let backend: Backend
        let bucket: TestBucket?
        let wrap: (@Sendable (any CDNClient) -> any CDNClient)?
        let logger: Logger
    }

    /// Runs the server and `body`; false when the server never started listening.
    private static func serve(
        _ settled: FeedsConfiguration, database: PostgresClient.Configuration, client: PostgresClient, _ setting: Setting,
        _ body: @Sendable (TestServer) async throws -> Void
    ) async throws -> Bool {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let (webSocketPorts, webSocketContinuation) = AsyncStream<Int>.makeStream()
        let app = try await buildApplication(
            settled, database: database, wrapCDN: setting.wrap, logger: setting.logger,
            onServerRunning: { portContinuation.yield($0) }, onWebSocketRunning: { webSocketContinuation.yield($0) })
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: TestDatabase.logger)
        // Unstructured, so that a shutdown that never ends fails the test (`hangGuard`) rather
        // than holding the suite.
        let running = Task {
            // However the server ends, the wait for its port ends too.
            defer {
                portContinuation.finish()
                webSocketContinuation.finish()
            }
            try await group.run()
        }
        // A start that never ends fails the test by name (twice a local run hung here, idle, with
        // a server's temp directory open and nothing else running), rather than holding the suite.
        let listening = try await hangGuard("the test server's start", seconds: 300) { () -> (Int, Int)? in
            var iterator = ports.makeAsyncIterator()
            var webSocketIterator = webSocketPorts.makeAsyncIterator()
            guard let port = await iterator.next(), let webSocketPort = await webSocketIterator.next() else { return nil }
            return (port, webSocketPort)
        }
        guard let (port, webSocketPort) = listening else {
            _ = try? await running.value
            return false
        }
        let server = TestServer(
            baseURL: "http://127.0.0.1:\(port)", webSocketURL: "ws://127.0.0.1:\(webSocketPort)/api/v2/connect", apiKey: apiKey,
            authenticator: try await Authenticator(apiKey: apiKey, apiSecret: apiSecret), database: client,
            configuration: settled,
            databaseURL:
                "postgres://\(database.username)\(database.password.map { ":\($0)" } ?? "")@\(database.host ?? "127.0.0.1"):\(database.port ?? 5432)/"
                + (database.database ?? "postgres"),
            backend: setting.backend, bucket: setting.bucket
        )
        let outcome = await Result { try await body(server) }
        await group.triggerGracefulShutdown()
        let shutdown = await Result {
            try await hangGuard("the test server's shutdown", seconds: 120) { try await running.value }
        }
        try outcome.get()  // what went wrong first, when both did
        try shutdown.get()
        return true
    }

    struct ServerDidNotStart: Error {}

    /// A response: status, headers and the body as JSON (`.null` when it is not JSON).
    public struct Reply: Sendable {
        public let status: Int
        public let headers: HTTPHeaders
        public let body: JSONValue
        public let text: String
        public let data: Data
    }

    /// Upload temp files under the data directory, in every process's folder (lock files aside).
    public var uploadTempFiles: [String] {
        let root = configuration.tempDirectory
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        return walker.compactMap { item in
            guard let url = item as? URL, url.lastPathComponent != ".lock",
                (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
            else { return nil }
            return url.path
        }
    }

    /// A user's token, or the server's when `user` is nil.
    public func token(_ user: String?) async throws -> String {
        try await authenticator.token(userID: user)
    }

    /// Sends a request to the API (`/api/v2` + path) as `user` (nil: the server), with the API key.
    public func api(
        _ method: HTTPMethod, _ path: String, as user: String?, json: String? = nil, query: String = "",
        headers: [(String, String)] = []
    ) async throws -> Reply {
        var all = [("Stream-Auth-Type", "jwt"), ("Authorization", try await token(user))]
        if json != nil { all.append(("Content-Type", "application/json")) }
        return try await send(
            method, "/api/v2\(path)?api_key=\(apiKey)\(query)", body: json.map { Data($0.utf8) }, headers: all + headers)
    }

    /// Sends any request, exactly as given, following redirects (to the store, with S3).
    public func send(
        _ method: HTTPMethod, _ pathAndQuery: String, body: Data? = nil, headers: [(String, String)] = [],
        followRedirects: Bool = true
    ) async throws -> Reply {
        try await Self.send(method, baseURL + pathAndQuery, body: body, headers: headers, followRedirects: followRedirects)
    }

    /// Sends a request to any absolute URL (the store's, say).
    public static func send(
        _ method: HTTPMethod, _ url: String, body: Data? = nil, headers: [(String, String)] = [], followRedirects: Bool = true
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let client = followRedirects ? Self.client : Self.noRedirects
        let prepared = request
        // The client's timeout ends at the response head; a body that stops coming would hold the
        // test (and the suite) forever without the guard.
        let buffer = try await hangGuard("\(method) \(url)", seconds: 360) {
            let response = try await client.execute(prepared, timeout: .seconds(300))
            return (response, try await response.body.collect(upTo: 64 << 20))
        }
        let response = buffer.0
        let data = Data(buffer: buffer.1)
        let json = (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .null
        return Reply(
            status: Int(response.status.code), headers: response.headers, body: json, text: String(decoding: data, as: UTF8.self),
            data: data)
    }

    /// The tests' clients, living as long as the process: one follows redirects, one shows them.
    /// Their timeouts are hang guards of minutes: a busy machine may take that long to answer.
    /// The connect timeout is also how long a request may wait for a pooled connection (8 a
    /// host): a test sending 192 requests at once failed at 60 s on a machine busy with a second
    /// CI run, so five minutes. (64 connections a host instead met the server's header timeout
    /// on idle ones under load.) A pooled connection is dropped
    /// after 4 s idle: the server closes one idle for its header timeout (10 s), and a request
    /// sent on it just then meets a reset (seen on a busy CI run).
    static let client = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: .init(
            redirectConfiguration: .follow(max: 5, allowCycles: false), timeout: patience, connectionPool: pool))
    static let noRedirects = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: .init(redirectConfiguration: .disallow, timeout: patience, connectionPool: pool))
    static let patience = HTTPClient.Configuration.Timeout(connect: .seconds(300), read: .seconds(300))
    static let pool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(4))
}

extension TestServer {
    /// Changes the app settings as the server (`PATCH /app`); fails unless they were accepted.
    public func changeApp(_ json: String) async throws {
        let reply = try await api(.PATCH, "/app", as: nil, json: json)
        guard reply.status == 200 else { throw SettingsRefused(reply: reply.text) }
    }

    public struct SettingsRefused: Error, CustomStringConvertible {
        public let reply: String
        public var description: String { "PATCH /app was refused: \(reply)" }
    }
}

extension TestServer {
    /// Creates feed groups of the app's own (`room`, `topic`) as the server; fails unless each was
    /// created or already there.
    public func createFeedGroups(_ ids: String...) async throws {
        for id in ids {
            let reply = try await api(.POST, "/feeds/feed_groups/\(id)", as: nil, json: "{}")
            guard reply.status == 200 else { throw SettingsRefused(reply: reply.text) }
        }
    }
}
