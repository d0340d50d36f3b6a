import FeedsCDN
import FeedsCore
import FeedsMedia
import FeedsUploads
import Foundation
import Hummingbird

/// `GET /cdn/{key}` with S3 behind it: our signed URL is checked as for the local disk, then the
/// client is redirected to a presigned URL of the store, so the bytes never pass through this node.
/// The store answers `Range` and `If-None-Match` itself, with the type and disposition stored with
/// the object at upload.
struct S3RedirectRoutes {
    let cdn: S3CDN
    let objects: any ObjectStore
    let variants: ImageVariants
    let fileIO = FileIO()

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/cdn/:prefix/:name") { request, context in
            try await redirect(request, context: context, method: "GET")
        }
        // A presigned URL is good for one method, so HEAD gets a HEAD URL.
        router.head("/cdn/:prefix/:name") { request, context in
            try await redirect(request, context: context, method: "HEAD")
        }
    }

    private func redirect<Context: RequestContext>(_ request: Request, context: Context, method: String) async throws
        -> Response
    {
        let raw = try CDNRoutes.verifiedKey(request, context: context, signer: cdn.signer)
        // The record, not the store, says whether the file exists: deleted is 404 here, as on disk.
        guard let key = ObjectKey(rawValue: raw), let record = try await objects.object(key, logger: context.logger),
            record.state != .deleted, record.state != .deleting
        else { throw FeedsError.notFound("no such file") }
        // A resize is made here, from a copy of the original fetched once, and served from this node.
        if let resize = try CDNRoutes.resize(request, mimeType: record.mimeType) {
            let (cdn, variants) = (cdn, variants)
            let (variant, outcome) = try await variants.variant(of: key, mimeType: record.mimeType, request: resize) {
                try await variants.original(of: key, from: cdn)
            }
            let file = CDNRoutes.ServedFile(
                key: key, path: variant.path, size: variant.size, mimeType: variant.mimeType, etag: variant.etag)
            var response = try await CDNRoutes.respond(
                with: file, variant: outcome, to: request, context: context, fileIO: fileIO)
            if method == "HEAD" { response.body = .init() }
            return response
        }
        let expires = request.uri.queryParameters["Expires"].flatMap { Double(String($0)) } ?? 0
        let location = cdn.presignedURL(for: key, method: method, notAfter: Date(timeIntervalSince1970: expires))
        return Response(
            status: .found,
            headers: [
                .location: location.absoluteString,
                // The presigned URL expires soon: nobody may keep this answer.
                .cacheControl: "no-store",
            ]
        )
    }
}
