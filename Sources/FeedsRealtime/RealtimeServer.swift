import FeedsCore
import FeedsWire
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import ServiceLifecycle

/// The WebSocket server on its own port (`FeedsConfiguration.effectiveWebSocketPort`): only
/// `GET /api/v2/connect`, upgraded, on plain NIO channel handlers. No task per socket: an idle
/// one costs its channel and a few handlers (bench/README.md has the figure).
///
/// On SIGTERM every socket is closed with 1012, which Stream's SDKs answer by reconnecting (to
/// another node) and re-syncing; a normal close (1000) would make the JS SDK stop for good.
package struct RealtimeServer<Store: ActivityStore>: Service {
    package let endpoint: RealtimeEndpoint<Store>
    package let host: String
    package let port: Int
    /// Sockets (and connections not yet upgraded) this node holds at once; one over is closed,
    /// unless a connection that has not authenticated yet can make room (`PendingSockets`).
    package let maxConnections: Int
    package let logger: Logger
    package let onServerRunning: @Sendable (Int) async -> Void
    /// How long the sockets have to take their close before shutdown goes on without them.
    package var drain: Duration = .seconds(3)

    package init(
        endpoint: RealtimeEndpoint<Store>, host: String, port: Int, maxConnections: Int, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void
    ) {
        (self.endpoint, self.host, self.port, self.maxConnections) = (endpoint, host, port, maxConnections)
        (self.logger, self.onServerRunning) = (logger, onServerRunning)
    }

    package func run() async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let quiesce = ServerQuiescingHelper(group: group)
        let open = NIOLockedValueBox(0)
        let (endpoint, maxConnections, logger) = (endpoint, maxConnections, logger)
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiesce.makeServerChannelHandler(channel: channel))
                }
            }
            // A client that stops reading is closed once 1 MB waits for it (`RealtimeSocketHandler.send`).
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 512 << 10, high: 1 << 20))
            .childChannelInitializer { channel in
                let count = open.withLockedValue { open in
                    open += 1
                    return open
                }
                channel.closeFuture.whenComplete { _ in open.withLockedValue { $0 -= 1 } }
                guard endpoint.pending.admit(channel) else { return channel.close() }
                guard count <= maxConnections || endpoint.pending.evictOldest(besides: channel) else { return channel.close() }
                return channel.eventLoop.makeCompletedFuture {
                    try endpoint.configureHTTP(channel, logger: logger)
                }
            }
            .bind(host: host, port: port).get()
        await onServerRunning(server.localAddress?.port ?? 0)
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                try? await server.closeFuture.get()
            } onGracefulShutdown: {
                quiesce.initiateShutdown(promise: nil)
            }
        } onCancel: {
            server.close(promise: nil)
        }
        // The sockets were told to close (`ChannelShouldQuiesceEvent`); give them a moment.
        let clock = ContinuousClock()
        let deadline = clock.now + drain
        while open.withLockedValue({ $0 }) > 0, clock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
    }
}

extension RealtimeEndpoint {
    /// A new connection's pipeline: HTTP/1.1 until it upgrades on `/api/v2/connect`, a socket
    /// after. Until its auth message it has `authTimeout`; other requests are answered 404.
    package func configureHTTP(_ channel: any Channel, logger: Logger) throws {
        let pipeline = channel.pipeline.syncOperations
        let deadline = channel.eventLoop.scheduleTask(in: TimeAmount(authTimeout)) { channel.close(promise: nil) }
        try pipeline.configureHTTPServerPipeline(
            withServerUpgrade: (
                upgraders: [upgrader(deadline: deadline, logger: logger)],
                completionHandler: { context in
                    context.pipeline.syncOperations.removeHandler(name: NotASocketRequest.name, promise: nil)
                }
            ),
            withErrorHandling: true)
        try pipeline.addHandler(NotASocketRequest(), name: NotASocketRequest.name)
    }

    /// Upgrades `GET /api/v2/connect` and hands the socket to a `RealtimeSocketHandler`.
    package func upgrader(deadline: Scheduled<Void>?, logger: Logger) -> NIOWebSocketServerUpgrader {
        NIOWebSocketServerUpgrader(
            maxFrameSize: Self.maxMessage, automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                channel.eventLoop.makeSucceededFuture(ConnectURI.matches(head.uri) ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        socketHandlers(query: ConnectURI.query(head.uri), deadline: deadline, logger: logger))
                }
            })
    }

    /// What follows the frame codec: messages joined from their frames, then the socket.
    package func socketHandlers(query: [String: String], deadline: Scheduled<Void>?, logger: Logger) -> [any ChannelHandler] {
        [
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 64, maxAccumulatedFrameSize: Self.maxMessage),
            RealtimeSocketHandler(endpoint: self, query: query, deadline: deadline, logger: logger),
        ]
    }

}

/// `/api/v2/connect?api_key=…&stream-auth-type=jwt`, the URI the SDKs dial.
package enum ConnectURI {
    package static func matches(_ uri: String) -> Bool { uri.prefix { $0 != "?" } == "/api/v2/connect" }

    /// The URI's query, percent-decoded; a name given twice keeps its first value.
    package static func query(_ uri: String) -> [String: String] {
        var query: [String: String] = [:]
        for item in URLComponents(string: uri)?.queryItems ?? [] where query[item.name] == nil {
            query[item.name] = item.value ?? ""
        }
        return query
    }
}

/// Answers what the WebSocket port is asked that is not an upgrade of `/api/v2/connect`: 404
/// (400 for that path without the upgrade), in Stream's error shape, then hangs up.
package final class NotASocketRequest: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias OutboundOut = HTTPServerResponsePart
    package static let name = "not-a-socket-request"

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        let upgradeMissing = ConnectURI.matches(head.uri)
        let error =
            upgradeMissing
            ? FeedsError.input("/api/v2/connect is a WebSocket: send Upgrade: websocket")
            : FeedsError.notFound("this port serves only the WebSocket /api/v2/connect")
        let body = ByteBuffer(bytes: APIErrorBody.json(for: error, duration: "0.00ms"))
        var headers = HTTPHeaders([("content-type", "application/json"), ("connection", "close")])
        headers.add(name: "content-length", value: String(body.readableBytes))
        let status = HTTPResponseStatus(statusCode: error.kind.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Sends every socket of this node a `health.check` each `interval`, and a ping each
/// `pingInterval` (a socket that let a whole interval pass without a frame is closed).
package struct HealthCheckService: Service {
    package let hub: RealtimeHub
    package let interval: Duration
    package let pingInterval: Duration

    package init(hub: RealtimeHub, interval: Duration, pingInterval: Duration) {
        (self.hub, self.interval, self.pingInterval) = (hub, interval, pingInterval)
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await every(interval) { hub.healthCheckAll(now: Date()) } }
                group.addTask { await every(pingInterval) { hub.pingAll() } }
            }
        }
    }

    private func every(_ interval: Duration, _ body: () -> Void) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            body()
        }
    }
}
