import FeedsCDN
import FeedsMedia
import Foundation
import HTTPTypes
import Metrics
import NIOCore
import NIOHTTPTypes

/// Popular small `/cdn` objects from memory (`HotObjects`), with an HMAC check and one `stat`:
/// only plain signed GETs (no Range, no conditional, no `Connection` header). The router answers
/// the rest, and fills the cache. The answer carries the same headers as `CDNRoutes`' own.
struct CDNFastAnswer: FastAnswer {
    let cdn: LocalDiskCDN
    let hot: HotObjects
    static let routeMetrics = RouteMetrics(route: "/cdn/{prefix}/{name}", method: "GET")
    var metrics: RouteMetrics { Self.routeMetrics }

    func answer(_ head: HTTPRequest) -> (HTTPResponse, ByteBuffer)? {
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
