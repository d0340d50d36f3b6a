import FeedsCDN
import FeedsMedia
import Foundation
import HTTPTypes
import Metrics
import NIOCore
import NIOHTTPTypes

/// Serves popular small `/cdn` objects from memory on the event loop, as a static file server
/// would: no task, no middleware chain, no file I/O beyond a `stat`. It answers only plain signed
/// GETs of objects in `HotObjects` (no Range, no conditional, no resize, no `Connection` header),
/// and only when no earlier request on the connection is still being answered, so responses keep
/// their order. Everything else goes on to the router unchanged, which also fills the cache.
/// The answer carries the same headers as `CDNRoutes`' own.
final class CDNFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let cdn: LocalDiskCDN
    private let hot: HotObjects
    private let serverName: String
    /// Requests passed on to the router whose responses have not ended yet.
    private var passedOn = 0
    /// Set while the rest of a request answered here is dropped.
    private var answered = false
    private var date = HTTPDateCache()

    init(cdn: LocalDiskCDN, hot: HotObjects, serverName: String) {
        self.cdn = cdn
        self.hot = hot
        self.serverName = serverName
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            let start = DispatchTime.now().uptimeNanoseconds
            if passedOn == 0, let (response, body) = answer(head) {
                answered = true
                context.write(wrapOutboundOut(.head(response)), promise: nil)
                context.write(wrapOutboundOut(.body(body)), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                Self.served.increment()
                Self.duration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
                return
            }
            passedOn += 1
            context.fireChannelRead(data)
        case .body, .end:
            guard answered else { return context.fireChannelRead(data) }
            if case .end = part { answered = false }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn = max(0, passedOn - 1) }
        context.write(data, promise: promise)
    }

    /// The response to `head` from memory, or nil when the router should answer it.
    private func answer(_ head: HTTPRequest) -> (HTTPResponse, ByteBuffer)? {
        guard head.method == .get, let target = head.path, target.hasPrefix("/cdn/") else { return nil }
        let fields = head.headerFields
        guard fields[.range] == nil, fields[.ifNoneMatch] == nil, fields[.ifModifiedSince] == nil,
            fields[.ifRange] == nil, fields[.connection] == nil
        else { return nil }
        guard var request = SignedObjectRequest(target) else { return nil }
        // A variant for a client that takes WebP is another entry (`CDNRoutes.resize`).
        if !request.parameters.isEmpty, ResizeRequest.acceptsWebP(fields[.accept]) {
            request.hotKey = HotObjects.key(request.key, parameters: request.parameters + [Substring(CDNRoutes.webpParameter)])
        }
        guard let entry = hot.entry(for: request.hotKey),
            cdn.signer.verify(key: request.key, expires: request.expires, signature: request.signature, now: Date()) == .valid
        else { return nil }
        guard cdn.stillStored(entry.object) else {
            hot.forget(request.hotKey)
            return nil
        }
        var response = HTTPResponse(status: .ok)
        response.headerFields = entry.fields
        response.headerFields[.cacheControl] = CDNRoutes.cacheControl(expires: request.expires)
        response.headerFields[RequestID.header] = RequestID.of(fields)
        response.headerFields[.date] = date.now()
        response.headerFields[.server] = serverName
        return (response, entry.bytes)
    }

    /// What every 200 for `object` carries but its `Cache-Control`, which depends on the URL, and
    /// the request's own headers (id, date, server). A resized image says it was found `cached`.
    static func fields(for object: StoredObject, variant: Bool = false) -> HTTPFields {
        var fields = CDNRoutes.headers(key: object.key, mimeType: object.mimeType, etag: object.etag, expires: nil)
        fields[.contentLength] = String(object.size)
        if variant {
            fields[CDNRoutes.variantHeader] = VariantCache.Outcome.cached.rawValue
            fields[.vary] = "Accept"
        }
        CDNSafetyHeaders.apply(to: &fields)
        return fields
    }

    /// Counted and timed under the router's own names, as if the route had answered.
    private static let dimensions = [
        ("http.route", "/cdn/{prefix}/{name}"), ("http.request.method", "GET"), ("http.response.status_code", "200"),
    ]
    private static let served = Counter(label: "hb.requests", dimensions: dimensions)
    private static let duration = Timer(label: "http.server.request.duration", dimensions: dimensions)
}

/// `/cdn/{prefix}/{name}?Expires=…&Signature=…[&w=…]` taken apart; nil when a part comes twice,
/// or anything is percent-encoded in the query (the routes decode it; here it stays as sent).
struct SignedObjectRequest {
    var key: String
    var expires: String
    var signature: String
    /// The object's key, or for a resized image its key and its parameters (`HotObjects.key`).
    var hotKey: String
    /// The query's pairs but `Expires` and `Signature`: a resize's.
    var parameters: [Substring]

    init?(_ target: String) {
        // Byte-wise: this runs on every read of a hot object.
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        var expires: Substring?
        var signature: Substring?
        var others: [Substring] = []
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            if pair.hasPrefix("Expires="), expires == nil {
                expires = pair.dropFirst(8)
            } else if pair.hasPrefix("Signature="), signature == nil {
                signature = pair.dropFirst(10)
            } else {
                guard let equals = pair.utf8.firstIndex(of: UInt8(ascii: "=")),
                    !pair.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }),
                    !others.contains(where: { $0.hasPrefix(pair[...equals]) })
                else { return nil }
                others.append(pair)
            }
        }
        let path = target[target.utf8.index(target.startIndex, offsetBy: 5)..<mark]
        guard let expires, let signature,
            let key = path.utf8.contains(UInt8(ascii: "%")) ? String(path).removingPercentEncoding : String(path)
        else { return nil }
        self.key = key
        self.expires = String(expires)
        self.signature = String(signature)
        self.parameters = others
        self.hotKey = HotObjects.key(key, parameters: others)
    }
}

/// The `Date` header's value, formatted once a second.
struct HTTPDateCache {
    private var second = 0
    private var text = ""

    mutating func now() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        if time.tv_sec != second {
            second = time.tv_sec
            var parts = tm()
            gmtime_r(&time.tv_sec, &parts)
            var buffer = [CChar](repeating: 0, count: 64)
            let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
            text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return text
    }
}
