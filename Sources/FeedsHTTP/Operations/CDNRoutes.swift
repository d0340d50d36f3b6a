import FeedsCDN
import FeedsCore
import FeedsMedia
import FeedsUploads
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /cdn/{key}`: local-disk objects behind signed, expiring URLs, with `Range` and `ETag`.
/// Served so they cannot attack: never sniffed, and anything but plain media downloads in a sandbox.
struct CDNRoutes {
    let cdn: LocalDiskCDN
    let variants: ImageVariants
    let hot: HotObjects
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
        guard let key = ObjectKey(rawValue: raw), let object = try cdn.object(for: key) else {
            throw FeedsError.notFound("no such file")
        }
        let query = Self.query(request)
        if let resize = try Self.resize(request, mimeType: object.mimeType) {
            let (variant, outcome) = try await variants.variant(of: key, mimeType: object.mimeType, request: resize) {
                object.path
            }
            let file = ServedFile(
                key: key, path: variant.path, size: variant.size, mimeType: variant.mimeType, etag: variant.etag)
            let parameters =
                query.filter { $0.key != "Expires" && $0.key != "Signature" }.map { "\($0.key)=\($0.value)" }
                + (resize.webp ? [Self.webpParameter] : [])
            return try await Self.respond(with: file, variant: outcome, to: request, context: context, fileIO: fileIO) {
                guard let stored = cdn.file(at: variant.path, key: key, mimeType: variant.mimeType, etag: variant.etag)
                else { return nil }
                return try await keepHot(stored, as: HotObjects.key(raw, parameters: parameters), variant: true)
            }
        }
        let file = ServedFile(key: key, path: object.path, size: object.size, mimeType: object.mimeType, etag: object.etag)
        return try await Self.respond(with: file, to: request, context: context, fileIO: fileIO) {
            try await keepHot(object, as: raw, variant: false)
        }
    }

    /// Small files are read into memory, where `CDNFastAnswer` serves their next reads from.
    private func keepHot(_ object: StoredObject, as hotKey: String, variant: Bool) async throws -> ByteBuffer? {
        guard hot.accepts(size: object.size), let bytes = try await cdn.bytes(of: object) else { return nil }
        hot.keep(object, bytes: bytes, fields: CDNFastAnswer.fields(for: object, variant: variant), as: hotKey)
        return bytes
    }

    static let variantHeader = HTTPField.Name("X-Feeds-Variant")!

    /// The resize a request's query asks for, in WebP when its `Accept` takes it and the image
    /// would come out as JPEG or PNG (a video's poster included); nil for no resize.
    static func resize(_ request: Request, mimeType: String) throws -> ResizeRequest? {
        guard var resize = try ResizeRequest(query: query(request)) else { return nil }
        resize.webp =
            ResizeRequest.acceptsWebP(request.headers[.accept])
            && ImageResizer.outputType(for: AVTypes.isVideo(mimeType) ? "image/jpeg" : mimeType, webp: true) == "image/webp"
        return resize
    }

    /// What a WebP variant adds to its key among the hot objects (`CDNFastAnswer` adds the same).
    static let webpParameter = "fmt=webp"

    /// A file on local disk to answer with: a stored object, or a variant of one.
    struct ServedFile {
        var key: ObjectKey
        var path: String
        var size: Int64
        var mimeType: String
        var etag: String
    }

    /// The query as a dictionary (the first of repeated names).
    static func query(_ request: Request) -> [String: String] {
        Dictionary(
            request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { first, _ in first })
    }

    /// Serves a local file with `ETag`/`If-None-Match` and `Range`.
    /// - Parameter inMemory: the whole file's bytes, when they are to come from memory.
    static func respond<Context: RequestContext>(
        with file: ServedFile, variant: VariantCache.Outcome? = nil, to request: Request, context: Context, fileIO: FileIO,
        inMemory: () async throws -> ByteBuffer? = { nil }
    ) async throws -> Response {
        var headers = Self.headers(
            key: file.key, mimeType: file.mimeType, etag: file.etag,
            expires: request.uri.queryParameters["Expires"].map(String.init))
        if let variant {
            headers[variantHeader] = variant.rawValue
            headers[.vary] = "Accept"
        }
        if let match = request.headers[.ifNoneMatch],
            match.split(separator: ",").contains(where: { $0.trimmingHeaderSpace() == file.etag || $0 == "*" })
        {
            return Response(status: .notModified, headers: headers)
        }
        if let range = request.headers[.range], file.size > 0 {
            guard let bounds = byteRange(range, size: file.size) else {
                headers[.contentRange] = "bytes */\(file.size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            headers[.contentRange] = "bytes \(bounds.lowerBound)-\(bounds.upperBound)/\(file.size)"
            headers[.contentLength] = String(bounds.count)
            let body = try await fileIO.loadFile(path: file.path, range: bounds, context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        }
        if let bytes = try await inMemory() {
            headers[.contentLength] = String(bytes.readableBytes)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
        }
        headers[.contentLength] = String(file.size)
        return Response(status: .ok, headers: headers, body: try await fileIO.loadFile(path: file.path, context: context))
    }

    /// What every answer about a file carries: its type and disposition, its ETag, that ranges
    /// may be asked for, and a `Cache-Control` that lets browsers and CDNs keep it until the URL expires.
    static func headers(key: ObjectKey, mimeType: String, etag: String, expires: String?) -> HTTPFields {
        var headers = contentHeaders(key: key, mimeType: mimeType)
        headers[.eTag] = etag
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = cacheControl(expires: expires)
        return headers
    }

    /// Browsers and CDNs may keep an answer until its URL expires.
    static func cacheControl(expires: String?) -> String? {
        guard let expires = expires.flatMap(Double.init) else { return nil }
        return "public, max-age=\(max(0, Int(expires - Date().timeIntervalSince1970)))"
    }

    /// The stored type; only raster images, audio and video render inline. (`nosniff` and the
    /// sandbox come from `CDNSafetyHeadersMiddleware`, for every `/cdn` answer.)
    static func contentHeaders(key: ObjectKey, mimeType: String) -> HTTPFields {
        var headers: HTTPFields = [:]
        headers[.contentType] = mimeType
        headers[.contentDisposition] = ServingPolicy.contentDisposition(for: key, mimeType: mimeType)
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
