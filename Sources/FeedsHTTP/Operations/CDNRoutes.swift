import FeedsCDN
import FeedsCore
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /cdn/{key}`: local-disk objects behind signed, expiring URLs, with `Range` and `ETag`.
/// Served so they cannot attack: never sniffed, and anything but plain media downloads in a sandbox.
struct CDNRoutes {
    let cdn: LocalDiskCDN
    let fileIO = FileIO()

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/cdn/:prefix/:name") { request, context in
            try await serve(request, context: context)
        }
        router.head("/cdn/:prefix/:name") { request, context in
            var response = try await serve(request, context: context)
            response.body = .init()
            return response
        }
    }

    private func serve<Context: RequestContext>(_ request: Request, context: Context) async throws -> Response {
        let raw = try Self.verifiedKey(request, context: context, signer: cdn.signer)
        let query = request.uri.queryParameters
        guard let key = ObjectKey(rawValue: raw), let object = try cdn.object(for: key) else {
            throw FeedsError.notFound("no such file")
        }
        var headers = Self.safetyHeaders(for: object)
        headers[.eTag] = object.etag
        headers[.acceptRanges] = "bytes"
        if let expires = query["Expires"].flatMap({ Double(String($0)) }) {
            let seconds = max(0, Int(expires - Date().timeIntervalSince1970))
            headers[.cacheControl] = "private, max-age=\(seconds)"
        }
        if let match = request.headers[.ifNoneMatch],
            match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == object.etag || $0 == "*" })
        {
            return Response(status: .notModified, headers: headers)
        }
        if let range = request.headers[.range], object.size > 0 {
            guard let bounds = Self.byteRange(range, size: object.size) else {
                headers[.contentRange] = "bytes */\(object.size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            headers[.contentRange] = "bytes \(bounds.lowerBound)-\(bounds.upperBound)/\(object.size)"
            headers[.contentLength] = String(bounds.count)
            let body = try await fileIO.loadFile(path: object.path, range: bounds, context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        }
        headers[.contentLength] = String(object.size)
        return Response(status: .ok, headers: headers, body: try await fileIO.loadFile(path: object.path, context: context))
    }

    /// The stored type, never sniffed; only raster images, audio and video render inline.
    static func safetyHeaders(for object: StoredObject) -> HTTPFields {
        var headers: HTTPFields = [:]
        headers[.contentType] = object.mimeType
        headers[.xContentTypeOptions] = "nosniff"
        headers[.contentSecurityPolicy] = "default-src 'none'; sandbox"
        headers[.contentDisposition] = ServingPolicy.contentDisposition(for: object.key, mimeType: object.mimeType)
        return headers
    }

    /// The raw key of a `/cdn/:prefix/:name` request whose `Expires` and `Signature` hold; 403 otherwise.
    static func verifiedKey<Context: RequestContext>(_ request: Request, context: Context, signer: URLSigner) throws -> String {
        let raw = "\(context.parameters.get("prefix") ?? "")/\(context.parameters.get("name") ?? "")"
        let query = request.uri.queryParameters
        switch signer.verify(
            key: raw, expires: query["Expires"].map(String.init), signature: query["Signature"].map(String.init), now: Date())
        {
        case .valid: return raw
        case .missing: throw FeedsError.notAllowed("this URL needs its Expires and Signature")
        case .bad: throw FeedsError.notAllowed("the URL's signature is not valid")
        case .expired: throw FeedsError.notAllowed("the URL has expired")
        }
    }

    /// The one range of `bytes=a-b`, `bytes=a-` or `bytes=-n`, clamped; nil when unsatisfiable.
    static func byteRange(_ header: String, size: Int64) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let last = Int(size) - 1
        switch (Int(spec[0]), Int(spec[1])) {
        case (let start?, let end?) where start <= end && start <= last: return start...min(end, last)
        case (let start?, nil) where spec[1].isEmpty && start <= last: return start...last
        case (nil, let suffix?) where spec[0].isEmpty && suffix > 0: return max(0, last - suffix + 1)...last
        default: return nil
        }
    }
}
