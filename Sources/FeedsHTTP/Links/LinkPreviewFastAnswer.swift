import FeedsAuth
import FeedsCore
import FeedsServices
import FeedsWire
import Foundation
import HTTPTypes
import NIOCore

/// GetOG of a link this node previewed lately (`RecentPreviews`), answered on the event loop: a
/// popular post's link is asked for by every reader who sees it, and through the router each ask
/// cost six middlewares, two hops between the event loop and a task, and the OpenAPI runtime's
/// query decoding and JSON encoding (a third of the throughput of a signed GET). It checks what
/// the router's middlewares would: the API key, the token (and a deactivated user), `Accept`, and
/// the caller's read budget, whose headers it carries. Anything it does not take plainly (another
/// parameter, a `+` or a parameter twice in the query, `Connection`, a refusal, a preview not in
/// memory) goes to the router, which answers errors in Stream's shape and fetches what is missing.
struct LinkPreviewFastAnswer: FastAnswer {
    let previews: LinkPreviews
    let authenticator: Authenticator
    let limiter: RateLimiter
    static let path = "/api/v2/og"
    static let routeMetrics = RouteMetrics(route: path, method: "GET")
    var metrics: RouteMetrics { Self.routeMetrics }

    func answer(_ head: HTTPRequest) -> (HTTPResponse, ByteBuffer)? {
        let start = ContinuousClock.now
        guard head.method == .get, let target = head.path, target.hasPrefix(Self.path + "?"),
            let query = Self.query(target.utf8.dropFirst(Self.path.utf8.count + 1)), let url = query.url
        else { return nil }
        let fields = head.headerFields
        // `Connection: close` is the router's to honour.
        guard fields[.connection] == nil else { return nil }
        if let accept = fields[.accept], !AcceptHeader.takesJSON(accept) { return nil }
        guard let preview = previews.remembered(url),
            let principal = try? authenticator.authenticate(
                apiKey: query.apiKey, authorization: fields[.authorization], authType: fields[.streamAuthType])
        else { return nil }
        var callers: [RateLimiter.Caller] = [principal.userID.map { .user($0) } ?? .server]
        if let address = fields[RequestHeadNormalizer.peerAddress] { callers.append(.address(address)) }
        let quota = limiter.take(.read, by: callers)
        // Over the limit, nothing was counted: the router refuses it with the 429 and counts nothing either.
        if quota?.exceeded == true { return nil }

        let image = previews.imageURLs(of: preview)
        var json = JSONWriter(capacity: 1024)
        // The generated type's fields, as it encodes them.
        json.object { json in
            json.field("author_name", preview.authorName)
            json.emptyObject("custom")
            json.field("duration", RequestScope.duration(since: start))
            json.field("image_url", image?.image)
            json.field("og_scrape_url", preview.scrapeURL)
            json.field("text", preview.text)
            json.field("thumb_url", image?.thumb)
            json.field("title", preview.title)
            json.field("title_link", preview.titleLink)
            json.field("type", preview.type)
        }
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "application/json; charset=utf-8"
        response.headerFields[.contentLength] = String(json.buffer.readableBytes)
        quota?.describe(in: &response.headerFields)
        return (response, json.buffer)
    }

    /// `api_key` and `url`, percent-decoded, each at most once; nil for anything else. Byte-wise:
    /// Foundation's `removingPercentEncoding` and `contains` were two fifths of the answer.
    static func query(_ text: Substring.UTF8View) -> (apiKey: String?, url: String?)? {
        var apiKey: String?, url: String?
        for pair in text.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")),
                let value = percentDecoded(pair[pair.index(after: equals)...])
            else { return nil }
            let name = pair[..<equals]
            if name.elementsEqual("api_key".utf8), apiKey == nil {
                apiKey = value
            } else if name.elementsEqual("url".utf8), url == nil {
                url = value
            } else {
                return nil
            }
        }
        return (apiKey, url)
    }

    /// `%XX` decoded; nil for a `+` (the router's decoder may read it as a space), a broken escape,
    /// or bytes that are not UTF-8.
    static func percentDecoded(_ encoded: Substring.UTF8View.SubSequence) -> String? {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let byte = encoded[index]
            if byte == UInt8(ascii: "+") { return nil }
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                index = encoded.index(after: index)
                continue
            }
            let high = encoded.index(after: index)
            guard high < encoded.endIndex, encoded.index(after: high) < encoded.endIndex,
                let h = hex(encoded[high]), let l = hex(encoded[encoded.index(after: high)])
            else { return nil }
            bytes.append(h << 4 | l)
            index = encoded.index(high, offsetBy: 2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
