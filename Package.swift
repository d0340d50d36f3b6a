// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "feeds",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "feeds", targets: ["feeds"])
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
    ],
    targets: [
        // Domain types, errors, rules and store protocols: no HTTP, no PostgresNIO.
        .target(
            name: "FeedsCore",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Local-disk and S3 CDN clients, and the signing of read URLs.
        .target(
            name: "FeedsCDN",
            dependencies: [
                "FeedsCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // libmagic and libvips, through small C shims: sniffing types, reading image headers.
        .systemLibrary(name: "CMagic", path: "Sources/FeedsMedia/CMagic", providers: [.apt(["libmagic-dev"])]),
        .systemLibrary(name: "CVips", path: "Sources/FeedsMedia/CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .target(name: "FeedsMedia", dependencies: ["FeedsCore", "CMagic", "CVips"], exclude: ["CMagic", "CVips"]),
        .systemLibrary(name: "CMalloc", path: "Sources/FeedsServer/Services/CMalloc"),
        // The attachment lifecycle: ingest checks, the uploader, linking, URL signing, variants, the sweeper.
        .target(
            name: "FeedsUploads",
            dependencies: [
                "FeedsCore",
                "FeedsCDN",
                "FeedsMedia",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // The Postgres stores, the migrator and the embedded-cluster launcher.
        .target(
            name: "FeedsPostgres",
            dependencies: [
                "FeedsCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            resources: [.copy("Migrations")]
        ),
        // Generated from the root openapi.yaml (symlinked in); nothing hand-written.
        .target(
            name: "FeedsAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            // The generator's unused imports and deprecated schema names are not ours to fix.
            swiftSettings: [.unsafeFlags(["-suppress-warnings"])],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // Stream's tokens: verifying JWTs and API keys into a `Principal`.
        .target(
            name: "FeedsAuth",
            dependencies: ["FeedsCore", .product(name: "JWTKit", package: "jwt-kit")]
        ),
        // Domain types as Stream's wire shows them: the generated types, and the same JSON
        // written straight to bytes for the responses and events sent most.
        .target(
            name: "FeedsWire",
            dependencies: [
                "FeedsCore",
                "FeedsAPI",
                "FeedsUploads",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        // The WebSocket side: the hub of watched feeds, the socket server and its upgrade.
        .target(
            name: "FeedsRealtime",
            dependencies: [
                "FeedsCore",
                "FeedsAuth",
                "FeedsWire",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The workflows behind the API, on domain types: each write's steps, its events, notifications.
        .target(
            name: "FeedsServices",
            dependencies: [
                "FeedsCore",
                "FeedsAPI",
                "FeedsWire",
                "FeedsRealtime",
                "FeedsUploads",
                "FeedsMedia",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The admin console: server-rendered pages for upload rules, uploads and storage.
        .target(
            name: "FeedsAdmin",
            dependencies: [
                "FeedsCore",
                "FeedsAuth",
                "FeedsUploads",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The HTTP side: the API implementation, its middlewares and routes, `/cdn`, error mapping.
        .target(
            name: "FeedsHTTP",
            dependencies: [
                "FeedsCore",
                "FeedsAPI",
                "FeedsCDN",
                "FeedsMedia",
                "FeedsUploads",
                "FeedsAuth",
                "FeedsWire",
                "FeedsRealtime",
                "FeedsServices",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // Served at GET /openapi.yaml; the link points at the root spec.
            resources: [.embedInCode("openapi.yaml")]
        ),
        // The composition root: `buildApplication` makes every part from the configuration and
        // wires them together, with the background services (fan-out, gc, heap trim).
        .target(
            name: "FeedsServer",
            dependencies: [
                "FeedsCore",
                "FeedsPostgres",
                "FeedsCDN",
                "FeedsUploads",
                "FeedsAuth",
                "FeedsRealtime",
                "FeedsAdmin",
                "FeedsHTTP",
                "FeedsServices",
                .target(name: "CMalloc", condition: .when(platforms: [.linux])),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Services/CMalloc"]
        ),
        // `feeds loadtest`: drives a server over HTTP, measures, and reads every acknowledged write back.
        .target(
            name: "FeedsLoadTest",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "feeds",
            dependencies: [
                "FeedsServer",
                "FeedsHTTP",
                "FeedsAuth",
                "FeedsPostgres",
                "FeedsLoadTest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // Throw-away databases and a live server for the tests (which fail, never skip, without PostgreSQL).
        .target(
            name: "FeedsTestSupport",
            dependencies: [
                "FeedsCore",
                "FeedsPostgres",
                "FeedsHTTP",
                "FeedsServer",
                "FeedsAuth",
                "FeedsCDN",
                "FeedsUploads",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "FeedsCoreTests", dependencies: ["FeedsCore"]),
        .testTarget(name: "FeedsCDNTests", dependencies: ["FeedsCDN"]),
        .testTarget(name: "FeedsUploadsTests", dependencies: ["FeedsUploads", "FeedsTestSupport"]),
        .testTarget(name: "FeedsMediaTests", dependencies: ["FeedsMedia", "FeedsTestSupport"]),
        .testTarget(name: "FeedsPostgresTests", dependencies: ["FeedsPostgres", "FeedsTestSupport"]),
        // The workflows on real PostgreSQL and the uploader, without HTTP.
        .testTarget(
            name: "FeedsServicesTests",
            dependencies: [
                "FeedsServices", "FeedsServer", "FeedsPostgres", "FeedsRealtime", "FeedsUploads", "FeedsTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "FeedsHTTPTests",
            dependencies: [
                "FeedsHTTP", "FeedsServer", "FeedsAuth", "FeedsWire", "FeedsRealtime", "FeedsAdmin", "FeedsCDN", "FeedsMedia",
                "CVips", "FeedsUploads", "FeedsTestSupport", "FeedsLoadTest",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ]
        ),
        .testTarget(
            name: "FeedsLoadTestTests", dependencies: ["FeedsLoadTest", "FeedsCore", "FeedsUploads", "FeedsTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
