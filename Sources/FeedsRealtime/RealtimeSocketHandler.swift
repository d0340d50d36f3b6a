import FeedsCore
import Foundation
import Logging
import NIOCore
import NIOWebSocket

/// One upgraded `/api/v2/connect` socket, on its event loop: no task of its own once the user is
/// known, so that an idle socket costs little more than its channel.
///
/// The first message carries the token and the user; it is checked off the loop, and the socket
/// then answers `connection.ok` and joins the hub, which writes it events (`send`). The client's
/// `health.check`s are answered, its pings ponged; a socket that let a whole ping interval pass
/// without a frame is closed by the next `ping()`. Closing sends a close frame and waits (a
/// moment) for the client's, as RFC 6455 asks, so that the client reads the code.
package final class RealtimeSocketHandler<Store: ActivityStore>: ChannelInboundHandler {
    package typealias InboundIn = WebSocketFrame
    package typealias OutboundOut = WebSocketFrame

    private enum State {
        case waiting
        case authenticating
        case open(RealtimeConnection)
        case closing
    }

    private let endpoint: RealtimeEndpoint<Store>
    private let query: [String: String]
    private let logger: Logger
    private var state = State.waiting
    /// Closes a socket that has not sent its auth message in time (set up before the upgrade).
    private var deadline: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    /// The frame encoder's place: frames made whole (`TextFrame`) are written from there, so
    /// they go to the socket as they are. Found at the first write: handlers put in front of the
    /// pipeline (`MainPortUpgrade`) may be added after this one.
    private var frames: ChannelHandlerContext?
    private var channel: (any Channel)?
    /// Whether a frame came since the last ping.
    private var heard = true

    package init(endpoint: RealtimeEndpoint<Store>, query: [String: String], deadline: Scheduled<Void>?, logger: Logger) {
        self.endpoint = endpoint
        self.query = query
        self.deadline = deadline
        self.logger = logger
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        self.channel = context.channel
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        leaveHub()
        deadline?.cancel()
        self.context = nil
        self.frames = nil
        self.channel = nil
    }

    package func channelInactive(context: ChannelHandlerContext) {
        leaveHub()
        state = .closing
        context.fireChannelInactive()
    }

    /// The server is shutting down (`ServerQuiescingHelper`).
    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            close(code: RealtimeHub.resyncCode, reason: "the server is restarting; reconnect")
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("real-time socket failed", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        heard = true
        switch frame.opcode {
        case .text: received(frame.unmaskedData, context: context)
        case .ping:
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose: closeReceived(frame, context: context)
        default: break
        }
    }

    private func received(_ message: ByteBuffer, context: ChannelHandlerContext) {
        switch state {
        case .waiting:
            state = .authenticating
            let (endpoint, query, logger) = (endpoint, query, logger)
            let text = String(buffer: message)
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            Task {
                let result: Result<User, any Error>
                do { result = .success(try await endpoint.authenticate(text, query: query, logger: logger)) } catch {
                    result = .failure(error)
                }
                bound.eventLoop.execute {
                    let (handler, context) = bound.value
                    handler.authenticated(result, context: context)
                }
            }
        case .open(let connection):
            // The client's health checks (`[{"type":"health.check",…}]` from the JS SDK) are
            // answered with one of ours; anything else a client sends is ignored.
            guard message.readableBytesView.firstRange(of: "health.check".utf8) != nil else { return }
            send(TextFrame.make(RealtimeMessages.healthCheck(connectionID: connection.id, at: endpoint.now())))
            context.flush()
        case .authenticating, .closing: break
        }
    }

    private func authenticated(_ result: Result<User, any Error>, context: ChannelHandlerContext) {
        guard case .authenticating = state, context.channel.isActive else { return }
        deadline?.cancel()
        deadline = nil
        switch result {
        case .success(let user):
            let id = endpoint.hub.newConnectionID()
            send(TextFrame.make(RealtimeMessages.connectionOK(connectionID: id, user: user, at: endpoint.now())))
            context.flush()
            let connection = RealtimeConnection(
                id: id, userID: user.id, socket: self, eventLoop: context.eventLoop)
            state = .open(connection)
            endpoint.pending.done(context.channel)
            endpoint.hub.join(connection)
        case .failure(let error):
            let refusal = endpoint.explain(error)
            logger.debug("real-time connection refused", metadata: ["error": "\(refusal.message)"])
            send(TextFrame.make(RealtimeMessages.connectionError(refusal, at: endpoint.now())))
            close(code: 1000, reason: refusal.message)
        }
    }

    // MARK: What the hub asks of the socket, on its event loop.

    /// Writes a whole text frame (`TextFrame`), flushed by the caller, once per batch. A client
    /// that stopped reading (its unsent bytes above the high watermark) is closed: it re-syncs
    /// when it reconnects.
    package func send(_ frame: ByteBuffer) {
        if frames == nil { frames = try? context?.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self) }
        guard let frames, let channel else { return }
        switch state {
        case .closing: return
        case .open where !channel.isWritable:
            close(code: RealtimeHub.resyncCode, reason: "too slow to keep up; reconnect and re-sync")
        default:
            frames.write(NIOAny(frame), promise: nil)
        }
    }

    package func flush() {
        context?.flush()
    }

    /// Sends a ping; closes the socket if nothing came since the previous one.
    package func ping() {
        guard let context, case .open = state else { return }
        guard heard else {
            logger.debug("real-time socket closed: no answer to a ping")
            close(code: 1001, reason: "no answer to a ping")
            return
        }
        heard = false
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer())), promise: nil)
    }

    /// Sends a close frame with `code`, then closes the connection once the client answers (or
    /// after `RealtimeEndpoint.closeGrace`).
    package func close(code: UInt16, reason: String) {
        guard let context else { return }
        if case .closing = state { return }
        leaveHub()
        state = .closing
        var data = context.channel.allocator.buffer(capacity: 2 + min(reason.utf8.count, 123))
        data.writeInteger(code)
        // A close frame's payload is at most 125 bytes.
        data.writeBytes(reason.utf8.prefix(123))
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: nil)
        context.eventLoop.scheduleTask(in: endpoint.closeGrace) { channel.close(promise: nil) }
    }

    private func closeReceived(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        if case .closing = state {
            context.close(promise: nil)
            return
        }
        leaveHub()
        state = .closing
        // Echo the client's code (none if it gave none), as the close handshake asks; then the
        // connection ends.
        var data = frame.unmaskedData
        var echo = context.channel.allocator.buffer(capacity: 2)
        if let code = data.readInteger(as: UInt16.self) { echo.writeInteger(code) }
        let closeFrame = WebSocketFrame(fin: true, opcode: .connectionClose, data: echo)
        context.writeAndFlush(wrapOutboundOut(closeFrame)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    private func leaveHub() {
        if case .open(let connection) = state { endpoint.hub.leave(connection.id) }
    }
}
