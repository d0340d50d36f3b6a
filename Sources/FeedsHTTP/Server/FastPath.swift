import Foundation
import HTTPTypes
import Metrics
import NIOCore
import NIOHTTPTypes

/// An answer made from memory on the event loop, as a static file server makes one: no task, no
/// middleware chain. Each recognises few requests and checks for itself what the router's
/// middlewares would (a signature, a token, a rate limit); for anything else it says nil and the
/// request goes on to the router unchanged.
protocol FastAnswer: Sendable {
    /// The response to `head` with its own headers (the date, server and request id are added),
    /// or nil when the router should answer it.
    func answer(_ head: HTTPRequest) -> (HTTPResponse, ByteBuffer)?
    /// Counted and timed under the router's own names for the route, as if it had answered.
    var metrics: RouteMetrics { get }
}

/// A route's request counter and timer for its 200s, as `MetricsMiddleware` names them.
struct RouteMetrics: Sendable {
    let served: Counter
    let duration: Timer

    init(route: String, method: String) {
        let dimensions = [("http.route", route), ("http.request.method", method), ("http.response.status_code", "200")]
        served = Counter(label: "hb.requests", dimensions: dimensions)
        duration = Timer(label: "http.server.request.duration", dimensions: dimensions)
    }
}

/// Puts the `FastAnswer`s in front of the router. A request is answered here only when no earlier
/// request on the connection is still being answered by the router, so responses keep their order;
/// the rest of a request answered here (its end) is dropped.
final class FastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let answers: [any FastAnswer]
    private let serverName: String
    /// Requests passed on to the router whose responses have not ended yet.
    private var passedOn = 0
    /// Set while the rest of a request answered here is dropped.
    private var answered = false
    private var date = HTTPDateCache()

    init(answers: [any FastAnswer], serverName: String) {
        self.answers = answers
        self.serverName = serverName
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            let start = DispatchTime.now().uptimeNanoseconds
            if passedOn == 0 {
                for answer in answers {
                    guard let (made, body) = answer.answer(head) else { continue }
                    var response = made
                    answered = true
                    response.headerFields[RequestID.header] = RequestID.of(head.headerFields)
                    response.headerFields[.date] = date.now()
                    response.headerFields[.server] = serverName
                    context.write(wrapOutboundOut(.head(response)), promise: nil)
                    context.write(wrapOutboundOut(.body(body)), promise: nil)
                    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                    answer.metrics.served.increment()
                    answer.metrics.duration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
                    return
                }
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
