import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// What a client may take of a node: a connection must bring a whole request head within
/// `headerTimeout` of opening, and of each response it was sent (a connection that sends its
/// head a byte at a time, or nothing, or sits idle between requests, is closed); and no more than
/// `maxConnections` are open at once (one over is closed at once). The handlers of other
/// connections go on unaffected.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The open connections of a node, shared by their guards.
    final class Count: Sendable {
        let open = NIOLockedValueBox(0)
    }

    private let headerTimeout: TimeAmount
    private let maxConnections: Int
    private let count: Count
    private var counted = false
    private var timer: Scheduled<Void>?

    init(headerTimeout: TimeAmount, maxConnections: Int, count: Count) {
        self.headerTimeout = headerTimeout
        self.maxConnections = maxConnections
        self.count = count
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let open = count.open.withLockedValue { open in
            open += 1
            return open
        }
        counted = true
        guard open <= maxConnections else {
            context.close(promise: nil)
            return
        }
        waitForHead(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        if counted { count.open.withLockedValue { $0 -= 1 } }
        counted = false
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let isEnd = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        if isEnd { waitForHead(context) }
    }

    /// Closes the connection unless a request head arrives in time.
    private func waitForHead(_ context: ChannelHandlerContext) {
        timer?.cancel()
        let context = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.value.eventLoop.scheduleTask(in: headerTimeout) { context.value.close(promise: nil) }
    }
}
