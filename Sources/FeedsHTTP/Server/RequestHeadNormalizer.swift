import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Every request head as all that follows reads it, so that no handler, middleware or route sees
/// a path another one does not: repeated slashes in the path become one (`//admin/sign-in` is
/// `/admin/sign-in` for the router and the sign-in slow-down alike); and the client's address
/// goes in as `feeds-peer-address`, replacing any a client sent (Hummingbird's basic request
/// context does not carry the address; the sign-in slow-down and the rate limits key on it): the
/// connection's peer, or from a trusted proxy the client `X-Forwarded-For` names.
final class RequestHeadNormalizer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    static let peerAddress = HTTPField.Name("feeds-peer-address")!
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    let proxies: TrustedProxies

    init(proxies: TrustedProxies) {
        self.proxies = proxies
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if let path = head.path, path.utf8.count > 1 { head.path = Self.collapsingSlashes(path) }
        let peer = context.channel.remoteAddress?.ipAddress ?? "unknown"
        head.headerFields[Self.peerAddress] =
            proxies.isEmpty ? peer : proxies.client(peer: peer, forwardedFor: head.headerFields[Self.forwardedFor])
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// `path` with each run of `/` before the query made one.
    static func collapsingSlashes(_ path: String) -> String {
        let (slash, query) = (UInt8(ascii: "/"), UInt8(ascii: "?"))
        var previous: UInt8 = 0
        // The common case, no run at all, reads the path once and allocates nothing.
        for byte in path.utf8 {
            if byte == query { return path }
            if byte == slash, previous == slash { break }
            previous = byte
        }
        if previous != slash { return path }
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        var inPath = true
        for byte in path.utf8 {
            if byte == query { inPath = false }
            if inPath, byte == slash, out.last == slash { continue }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
