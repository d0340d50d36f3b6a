import FeedsCore
import FeedsWire
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue`, which Hummingbird leaves unanswered (clients then stall a
/// second before sending the body): 100 Continue when the request may go on, or a 413 before any
/// body is sent when its declared `Content-Length` is already over the limit for its route.
final class ExpectContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// The most body bytes a request may declare.
    let limit: @Sendable (HTTPRequest) -> Int64
    /// Set while the parts of a refused request are dropped.
    private var refusing = false

    init(limit: @escaping @Sendable (HTTPRequest) -> Int64) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(var head):
            guard head.headerFields[.expect]?.lowercased() == "100-continue" else {
                context.fireChannelRead(data)
                return
            }
            head.headerFields[.expect] = nil
            let max = limit(head)
            if let length = head.headerFields[.contentLength].flatMap(Int64.init), length > max {
                refusing = true
                refuse(context: context, length: length, limit: max)
                return
            }
            context.writeAndFlush(NIOAny(HTTPResponsePart.head(HTTPResponse(status: .continue))), promise: nil)
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body, .end:
            guard !refusing else { return }
            context.fireChannelRead(data)
        }
    }

    private func refuse(context: ChannelHandlerContext, length: Int64, limit: Int64) {
        let error = FeedsError(.payloadTooLarge, "the request body of \(length) bytes is over the limit of \(limit) bytes")
        let body = APIErrorBody.json(for: error, duration: "0.00ms")
        var head = HTTPResponse(status: .contentTooLarge)
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        head.headerFields[.contentLength] = String(body.count)
        head.headerFields[.connection] = "close"
        context.write(NIOAny(HTTPResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPResponsePart.body(ByteBuffer(bytes: body))), promise: nil)
        // The client sends no body after a final status; close rather than wait for one.
        context.writeAndFlush(NIOAny(HTTPResponsePart.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
