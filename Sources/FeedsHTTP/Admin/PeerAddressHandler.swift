import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Writes the connection's peer address into every `/admin` request as `feeds-peer-address`
/// (replacing any a client sent), for the sign-in slow-down: Hummingbird's basic request context
/// does not carry the address, and the API routes need it not.
final class PeerAddressHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    static let header = HTTPField.Name("feeds-peer-address")!

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.path?.hasPrefix("/admin") == true else {
            context.fireChannelRead(data)
            return
        }
        head.headerFields[Self.header] = context.channel.remoteAddress?.ipAddress ?? "unknown"
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
