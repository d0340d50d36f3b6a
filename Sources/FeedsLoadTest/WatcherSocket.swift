import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A lean client of `/api/v2/connect` for load runs: channel handlers on an event loop, no task
/// per socket, so that a thousand of them receiving 100 events a second measure the server's
/// latency rather than their own backlog. It sends the auth message once upgraded, hands every
/// text message to `onMessage` on its event loop, and answers pings and the close handshake.
/// (`RealtimeSocket`, on hummingbird-websocket's client, is the one the tests speak through.)
public final class WatcherSocket: Sendable {
    private let channel: EventLoopFuture<any Channel>

    /// Opens `url` (`ws://host:port/api/v2/connect`) for `userID` with `token`.
    public init(
        url: String, apiKey: String, userID: String, token: String, logger: Logger,
        onMessage: @escaping @Sendable (ByteBuffer) -> Void
    ) throws {
        guard let parsed = URL(string: url), parsed.scheme == "ws", let host = parsed.host, let port = parsed.port else {
            throw LoadTestError("--ws-url \(url) is not ws://host:port/path")
        }
        let target = "\(parsed.path)?api_key=\(apiKey)&stream-auth-type=jwt&X-Stream-Client=feeds-loadtest"
        let auth = #"{"token":"\#(token)","user_details":{"id":"\#(userID)"},"products":["feeds"]}"#
        var key = [UInt8](repeating: 0, count: 16)
        for index in key.indices { key[index] = .random(in: 0...255) }
        let upgrader = NIOWebSocketClientUpgrader(
            requestKey: Data(key).base64EncodedString(), maxFrameSize: 1 << 22, automaticErrorHandling: true,
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(WatcherHandler(auth: auth, onMessage: onMessage))
                }
            })
        channel = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(30))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        withClientUpgrade: (
                            upgraders: [upgrader],
                            completionHandler: { context in
                                context.pipeline.syncOperations.removeHandler(name: UpgradeRequest.name, promise: nil)
                            }
                        ))
                    try channel.pipeline.syncOperations.addHandler(
                        UpgradeRequest(host: "\(host):\(port)", target: target), name: UpgradeRequest.name)
                }
            }
            .connect(host: host, port: port)
        channel.whenFailure { logger.warning("socket did not connect", metadata: ["error": "\($0)"]) }
    }

    /// Closes the socket (normally) and waits, a moment at most, for it to end.
    public func close() async {
        guard let channel = try? await channel.get() else { return }
        var code = ByteBuffer()
        code.writeInteger(UInt16(1000))
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: code)
        channel.writeAndFlush(frame, promise: nil)
        let closing = channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
        try? await channel.closeFuture.get()
        closing.cancel()
    }
}

/// Sends the upgrade request once the connection is up.
private final class UpgradeRequest: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    static let name = "upgrade-request"
    let host: String
    let target: String

    init(host: String, target: String) {
        self.host = host
        self.target = target
    }

    func channelActive(context: ChannelHandlerContext) {
        let headers = HTTPHeaders([("Host", host), ("Content-Length", "0")])
        context.write(wrapOutboundOut(.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }
}

/// The socket once upgraded: the auth message first, then every text message to `onMessage`.
private final class WatcherHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let auth: String
    let onMessage: @Sendable (ByteBuffer) -> Void
    /// A message split over frames, while it is joined.
    private var partial: ByteBuffer?

    init(auth: String, onMessage: @escaping @Sendable (ByteBuffer) -> Void) {
        self.auth = auth
        self.onMessage = onMessage
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: auth))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            if frame.fin { onMessage(frame.data) } else { partial = frame.data }
        case .continuation:
            partial?.writeImmutableBuffer(frame.data)
            if frame.fin, let whole = partial {
                onMessage(whole)
                partial = nil
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.data)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            let reply = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: frame.data)
            context.writeAndFlush(wrapOutboundOut(reply)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        default: break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
