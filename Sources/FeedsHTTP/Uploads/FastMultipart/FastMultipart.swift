import FeedsCore
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime

/// The raw body of the multipart request being handled, so that its handler can read the parts
/// with `MultipartScanner` (memchr over each chunk) instead of the OpenAPI runtime's parser, which
/// matches the boundary a byte at a time and takes tens of seconds for 100 MB. The typed parts are
/// the same values the generated code makes: the runtime's own `Converter` decodes them.
struct FastMultipart: Sendable {
    let body: HTTPBody
    let boundary: String
    let converter: Converter

    /// Set by `FastMultipartMiddleware` for the length of a multipart request.
    @TaskLocal static var current: FastMultipart?

    /// `parts`, read by the fast parser when the request's raw body is at hand; else as given.
    static func parts<Payload: FastMultipartPayload>(_ parts: MultipartBody<Payload>) -> MultipartBody<Payload> {
        guard let current else { return parts }
        let reader = MultipartReader(body: current.body, boundary: current.boundary)
        return MultipartBody(TypedParts<Payload>(reader: reader, converter: current.converter), iterationBehavior: .single)
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
            guard let fields = try await reader.nextPart() else { return nil }
            let (name, _) = try converter.extractContentDispositionNameAndFilename(in: fields)
            if let name, Payload.atMostOncePartNames.contains(name), !seen.insert(name).inserted {
                throw FeedsError.input("the part \(name) may be sent only once", field: name)
            }
            let body = HTTPBody(MultipartPartBody(reader: reader), length: .unknown, iterationBehavior: .single)
            return try await Payload.decode(MultipartRawPart(headerFields: fields, body: body), converter: converter)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: reader, converter: converter) }
}

/// Hands the raw body of every multipart request to `FastMultipart.current`.
struct FastMultipartMiddleware: ServerMiddleware {
    let converter: Converter

    init(configuration: Configuration) {
        converter = Converter(configuration: configuration)
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // A request that is not well-formed multipart is left to the generated code, which refuses it.
        guard let body, let boundary = try? converter.extractContentTypeIfPresent(in: request.headerFields).requiredBoundary()
        else { return try await next(request, body, metadata) }
        let raw = FastMultipart(body: body, boundary: boundary, converter: converter)
        return try await FastMultipart.$current.withValue(raw) { try await next(request, body, metadata) }
    }
}
