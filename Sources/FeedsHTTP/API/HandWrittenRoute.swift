import FeedsCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// What the hand-written routes (`FeedPageRoutes`, `AddActivityRoute`) take from the generated
/// ones, so that a client cannot tell them apart: the content-type check, the body decoded as the
/// generated request type, path parameters percent-decoded, JSON replies.
enum HandWrittenRoute {
    /// The body as the generated type, after the content-type check the generated code makes.
    /// `common` may read the body from its parsed JSON instead; when it says nil (or the JSON does
    /// not parse), the generated decoder reads it.
    static func decode<Body: Decodable>(
        _: Body.Type, from request: Request, limit: Int, common: ((JSONValue) throws -> Body?)? = nil
    ) async throws -> Body {
        if let type = request.headers[.contentType] {
            // A wildcard takes the first type the operation accepts, as the generated code does.
            let media = mediaType(type)
            guard media.equalsIgnoringASCIICase("application/json") || media.hasSuffix("/*") else {
                throw FeedsError(
                    .unsupportedMediaType, "Unexpected content type, expected: application/json, received: \(type)")
            }
        }
        let buffer = try await request.body.collect(upTo: limit)
        if let common, let text = String(validating: buffer.readableBytesView, as: UTF8.self),
            let json = try? JSONValue(parsing: text), let body = try common(json)
        {
            return body
        }
        return try JSONDecoder().decode(Body.self, from: Data(buffer.readableBytesView))
    }

    /// `type/subtype` of a Content-Type, without its parameters, in the case it came in (compare
    /// it with `equalsIgnoringASCIICase`): read on every create, so nothing is copied.
    static func mediaType(_ contentType: String) -> Substring {
        contentType[..<(contentType.firstIndex(of: ";") ?? contentType.endIndex)].trimmingHeaderSpace()
    }

    /// Whether the body is `multipart/form-data`, in any case, whatever its parameters.
    static func isMultipartFormData(_ headers: HTTPFields) -> Bool {
        guard let type = headers[.contentType] else { return false }
        return mediaType(type).equalsIgnoringASCIICase("multipart/form-data")
    }

    /// The `translate_text` query parameter of the reads, a boolean as the generated code would
    /// require (translation itself is not implemented).
    static func checkTranslateText(_ request: Request) throws {
        if let translate = request.uri.queryParameters["translate_text"], Bool(String(translate)) == nil {
            throw FeedsError.input("translate_text must be true or false", field: "translate_text")
        }
    }

    /// The `connection_id` query parameter of the reads that watch: at most 100 bytes, as declared,
    /// whether or not the request watches.
    static func connectionID(_ request: Request) throws -> String? {
        guard let id = request.uri.queryParameters["connection_id"].map(String.init) else { return nil }
        guard id.utf8.count <= 100 else { throw FeedsError.input("connection_id is at most 100 bytes", field: "connection_id") }
        return id
    }

    /// A path parameter, percent-decoded as the generated code decodes it.
    static func parameter<Context: RequestContext>(_ name: String, _ context: Context) throws -> String {
        let raw = try context.parameters.require(name)
        guard let decoded = raw.removingPercentEncoding else {
            throw FeedsError.input("\(name) is not a valid path segment", field: name)
        }
        return decoded
    }

    /// 201 with a JSON body.
    static func created(_ body: ByteBuffer) -> Response {
        Response(
            status: .created, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
    }
}
