import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// An app's backend as far as webhooks go, for the tests and `make bench`: an HTTP server on
/// loopback that records every delivery (its headers, body, and when it came) and answers as
/// told: 200, a status, never, or a body without end. It can be stopped and started again on
/// the same port, as a receiver that goes down for a while.
public final class WebhookReceiver: Sendable {
    /// One request as it arrived.
    public struct Delivery: Sendable {
        public var webhookID: String
        public var attempt: Int
        public var signature: String
        public var apiKey: String
        public var body: [UInt8]
        public var arrived: ContinuousClock.Instant
        /// Whether it was answered 2xx.
        public var answered: Bool
    }

    /// How it answers.
    public enum Answer: Sendable, Equatable {
        case status(Int)
        /// Reads the request and never answers.
        case hang
        /// 200 with a body that never ends (a receiver answering gigabytes).
        case endless
    }

    public let port: Int
    private let state = NIOLockedValueBox(State())

    struct State {
        var deliveries: [Delivery] = []
        var answer = Answer.status(200)
        var channel: (any Channel)?
        var connections: [any Channel] = []
    }

    /// Listens on `port` (0: a free one).
    public init(port: Int = 0) async throws {
        let state = self.state
        let channel = try await Self.listen(port: port, state: state)
        self.port = channel.localAddress?.port ?? port
        state.withLockedValue { $0.channel = channel }
    }

    public var url: String { "http://127.0.0.1:\(port)/webhook" }
    public var deliveries: [Delivery] { state.withLockedValue { $0.deliveries } }

    public func answer(_ answer: Answer) {
        state.withLockedValue { $0.answer = answer }
    }

    /// Closes the listener and every connection: deliveries fail to connect until `start`.
    public func stop() async {
        let (listener, connections) = state.withLockedValue { state in
            defer { (state.channel, state.connections) = (nil, []) }
            return (state.channel, state.connections)
        }
        try? await listener?.close()
        for connection in connections { try? await connection.close() }
    }

    /// Listens again on the same port.
    public func start() async throws {
        let channel = try await Self.listen(port: port, state: state)
        state.withLockedValue { $0.channel = channel }
    }

    private static func listen(port: Int, state: NIOLockedValueBox<State>) async throws -> any Channel {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                state.withLockedValue { $0.connections.append(channel) }
                return channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler(state: state))
                }
            }
            .bind(host: "127.0.0.1", port: port).get()
    }

    final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let state: NIOLockedValueBox<State>
        var head: HTTPRequestHead?
        var body: [UInt8] = []

        init(state: NIOLockedValueBox<State>) {
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                (self.head, body) = (head, [])
            case .body(let buffer):
                body += buffer.readableBytesView
            case .end:
                guard let head else { return }
                let delivery = Delivery(
                    webhookID: head.headers.first(name: "X-Webhook-Id") ?? "",
                    attempt: Int(head.headers.first(name: "X-Webhook-Attempt") ?? "") ?? 0,
                    signature: head.headers.first(name: "X-Signature") ?? "",
                    apiKey: head.headers.first(name: "X-Api-Key") ?? "", body: body, arrived: .now, answered: false)
                let answer = state.withLockedValue { state in
                    var delivery = delivery
                    if case .status(let code) = state.answer, (200..<300).contains(code) { delivery.answered = true }
                    if state.answer == .endless { delivery.answered = true }
                    state.deliveries.append(delivery)
                    return state.answer
                }
                respond(answer, context: context)
            }
        }

        private func respond(_ answer: Answer, context: ChannelHandlerContext) {
            switch answer {
            case .hang:
                return
            case .status(let code):
                var headers = HTTPHeaders()
                headers.add(name: "Content-Length", value: "2")
                context.write(wrapOutboundOut(.head(.init(version: .http1_1, status: .init(statusCode: code), headers: headers))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "ok")))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            case .endless:
                context.writeAndFlush(wrapOutboundOut(.head(.init(version: .http1_1, status: .ok))), promise: nil)
                pour(context: context, chunk: ByteBuffer(repeating: UInt8(ascii: "x"), count: 1 << 16))
            }
        }

        /// Writes chunks for as long as the connection takes them.
        private func pour(context: ChannelHandlerContext, chunk: ByteBuffer) {
            let loop = context.eventLoop
            let promise = loop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: promise)
            // The next write goes from the same event loop, where the handler and its context live.
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            promise.futureResult.whenSuccess {
                let (handler, context) = bound.value
                guard context.channel.isActive else { return }
                handler.pour(context: context, chunk: chunk)
            }
        }
    }
}
