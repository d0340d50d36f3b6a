import FeedsCore
import HTTPTypes
import Hummingbird
@_spi(Generated) import OpenAPIRuntime

/// The reader of the multipart request being handled, so that its handler can read the parts with
/// `MultipartScanner` (memchr over each buffer) instead of the OpenAPI runtime's parser, which
/// matches the boundary a byte at a time and takes tens of seconds for 100 MB, and a file part's
/// bytes as the buffers they came in (`PartBytes`). The typed parts are the same values the
/// generated code makes: the runtime's own `Converter` decodes them.
struct FastMultipart: Sendable {
    let reader: MultipartReader
    let converter: Converter

    /// Set by `FastMultipartMiddleware` for the length of a multipart request.
    @TaskLocal static var current: FastMultipart?

    /// `parts`, read by the fast parser when the request's raw body is at hand; else as given.
    static func parts<Payload: FastMultipartPayload>(_ parts: MultipartBody<Payload>) -> MultipartBody<Payload> {
        guard let current else { return parts }
        return MultipartBody(
            TypedParts<Payload>(reader: current.reader, converter: current.converter), iterationBehavior: .single)
    }
}

/// A generated multipart payload that the fast parser can make from a raw part.
protocol FastMultipartPayload: Sendable {
    /// Part names the spec allows once at most (the generated `atMostOncePartNames`).
    static var atMostOncePartNames: Set<String> { get }
    /// The typed part, decoded as the generated code decodes it.
    static func decode(_ part: MultipartRawPart, converter: Converter) async throws -> Self
}

/// The typed parts of a body, one raw part at a time, each part's body streamed.
struct TypedParts<Payload: FastMultipartPayload>: AsyncSequence, Sendable {
    typealias Element = Payload
    let reader: MultipartReader
    let converter: Converter

    struct AsyncIterator: AsyncIteratorProtocol {
        let reader: MultipartReader
        let converter: Converter
        var seen: Set<String> = []

        mutating func next() async throws -> Payload? {
            guard let part = try await reader.nextPart() else { return nil }
            let (name, _) = try converter.extractContentDispositionNameAndFilename(in: part.headerFields)
            if let name, Payload.atMostOncePartNames.contains(name), !seen.insert(name).inserted {
                throw FeedsError.input("the part \(name) may be sent only once", field: name)
            }
            return try await Payload.decode(part, converter: converter)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: reader, converter: converter) }
}

/// Hands the body of every multipart request to a `MultipartReader` in `FastMultipart.current`,
/// before the OpenAPI transport wraps it in an `HTTPBody` of byte arrays.
struct FastMultipartMiddleware<Context: RequestContext>: RouterMiddleware {
    let converter: Converter

    init(configuration: Configuration) {
        converter = Converter(configuration: configuration)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        // A request that is not well-formed multipart is left to the generated code, which refuses it.
        guard HandWrittenRoute.isMultipartFormData(request.headers),
            let boundary = try? converter.extractContentTypeIfPresent(in: request.headers).requiredBoundary()
        else { return try await next(request, context) }
        let fast = FastMultipart(reader: MultipartReader(body: request.body, boundary: boundary), converter: converter)
        return try await FastMultipart.$current.withValue(fast) { try await next(request, context) }
    }
}
