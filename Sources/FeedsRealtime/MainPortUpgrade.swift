import FeedsCore
import FeedsWire
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOWebSocket

/// `/api/v2/connect` on the main HTTP port too, for clients that dial the API's own host and
/// port (behind a proxy, say). It sits in the HTTP pipeline after the connection guard (which
/// saw the request head, and goes on counting the connection): a request to upgrade is answered
/// 101 here, the HTTP codec is taken out, and the socket's handlers go in front of what is left,
/// so the rest of the HTTP pipeline sees nothing more until the connection closes.
package final class MainPortUpgrade<Store: ActivityStore>: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPRequestPart
    package typealias InboundOut = HTTPRequestPart
    package typealias OutboundOut = HTTPResponsePart

    private let endpoint: RealtimeEndpoint<Store>
    private let logger: Logger
    /// The upgrade request, from its head to its end.
    private var upgrading: HTTPRequest?

    package init(endpoint: RealtimeEndpoint<Store>, logger: Logger) {
        self.endpoint = endpoint
        self.logger = logger
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .head(let request) = part, Self.asksForTheSocket(request) {
            upgrading = request
            return
        }
        guard let request = upgrading else { return context.fireChannelRead(data) }
        // A body sent with the upgrade request is dropped.
        if case .end = part {
            upgrading = nil
            upgrade(request, context: context)
        }
    }

    package static func asksForTheSocket(_ request: HTTPRequest) -> Bool {
        request.method == .get && ConnectURI.matches(request.path ?? "")
            && request.headerFields[.upgrade]?.lowercased().contains("websocket") == true
    }

    private func upgrade(_ request: HTTPRequest, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        for field in request.headerFields { headers.add(name: field.name.rawName, value: field.value) }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: request.path ?? "/", headers: headers)
        let channel = context.channel
        let deadline = channel.eventLoop.scheduleTask(in: TimeAmount(endpoint.authTimeout)) { channel.close(promise: nil) }
        endpoint.upgrader(deadline: deadline, logger: logger)
            .buildUpgradeResponse(channel: channel, upgradeRequest: head, initialResponseHeaders: HTTPHeaders())
            .assumeIsolated()
            .whenComplete { result in
                switch result {
                case .success(let headers): self.switchProtocols(headers, head: head, deadline: deadline, context: context)
                case .failure(let error):
                    deadline.cancel()
                    self.refuse(FeedsError.input("not a WebSocket upgrade: \(error)"), context: context)
                }
            }
    }

    private func switchProtocols(
        _ headers: HTTPHeaders, head: HTTPRequestHead, deadline: Scheduled<Void>, context: ChannelHandlerContext
    ) {
        var fields = HTTPFields()
        for header in headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        context.writeAndFlush(
            wrapOutboundOut(.head(HTTPResponse(status: .switchingProtocols, headerFields: fields))), promise: nil)
        do {
            let pipeline = context.pipeline.syncOperations
            pipeline.removeHandler(try pipeline.handler(type: HTTPResponseEncoder.self), promise: nil)
            pipeline.removeHandler(try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self), promise: nil)
            try pipeline.addHandlers(
                [
                    WebSocketFrameEncoder(),
                    ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: RealtimeEndpoint<Store>.maxMessage)),
                    WebSocketProtocolErrorHandler(),
                ] + endpoint.socketHandlers(query: ConnectURI.query(head.uri), deadline: deadline, logger: logger),
                position: .first)
        } catch {
            logger.error("cannot upgrade to a WebSocket", metadata: ["error": "\(error)"])
            context.close(promise: nil)
        }
    }

    private func refuse(_ error: FeedsError, context: ChannelHandlerContext) {
        let body = ByteBuffer(bytes: APIErrorBody.json(for: error, duration: "0.00ms"))
        let fields: HTTPFields = [
            .contentType: "application/json", .contentLength: String(body.readableBytes), .connection: "close",
        ]
        context.write(
            wrapOutboundOut(.head(HTTPResponse(status: .init(code: error.kind.status), headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
