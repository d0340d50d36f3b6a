import FeedsAPI
@_spi(Generated) import OpenAPIRuntime

// The decoding closures of the generated `Server.swift` for the three multipart operations, part
// for part: the same converter calls, so the typed parts and their errors are the same.

extension Operations.UploadFile.Input.Body.MultipartFormPayload: FastMultipartPayload {
    static let atMostOncePartNames: Set<String> = ["file", "user"]

    static func decode(_ part: MultipartRawPart, converter: Converter) async throws -> Self {
        let decoder = PartDecoder(part: part, converter: converter)
        return switch try decoder.name() {
        case "file": .file(.init(payload: .init(body: try decoder.binary()), filename: try decoder.fileName()))
        case "user": .user(.init(payload: .init(body: try await decoder.json()), filename: try decoder.fileName()))
        default: .undocumented(part)
        }
    }
}

extension Operations.UploadImage.Input.Body.MultipartFormPayload: FastMultipartPayload {
    static let atMostOncePartNames: Set<String> = ["file", "upload_sizes", "user"]

    static func decode(_ part: MultipartRawPart, converter: Converter) async throws -> Self {
        let decoder = PartDecoder(part: part, converter: converter)
        return switch try decoder.name() {
        case "file": .file(.init(payload: .init(body: try decoder.binary()), filename: try decoder.fileName()))
        case "upload_sizes":
            .uploadSizes(.init(payload: .init(body: try decoder.binary()), filename: try decoder.fileName()))
        case "user": .user(.init(payload: .init(body: try await decoder.json()), filename: try decoder.fileName()))
        default: .undocumented(part)
        }
    }
}

extension Operations.AddActivity.Input.Body.MultipartFormPayload: FastMultipartPayload {
    static let atMostOncePartNames: Set<String> = ["activity"]

    static func decode(_ part: MultipartRawPart, converter: Converter) async throws -> Self {
        let decoder = PartDecoder(part: part, converter: converter)
        return switch try decoder.name() {
        case "activity": .activity(.init(payload: .init(body: try await decoder.json()), filename: try decoder.fileName()))
        default: .undocumented(part)
        }
    }
}

/// One raw part, decoded with the converter calls the generated code makes.
private struct PartDecoder {
    let part: MultipartRawPart
    let converter: Converter

    func name() throws -> String? { try converter.extractContentDispositionNameAndFilename(in: part.headerFields).name }

    func fileName() throws -> String? {
        try converter.extractContentDispositionNameAndFilename(in: part.headerFields).filename
    }

    /// A part of any type, streamed.
    func binary() throws -> HTTPBody {
        try converter.verifyContentTypeIfPresent(in: part.headerFields, matches: "*/*")
        return try converter.getRequiredRequestBodyAsBinary(HTTPBody.self, from: part.body, transforming: { $0 })
    }

    /// A JSON part, decoded.
    func json<T: Decodable & Sendable>() async throws -> T {
        try converter.verifyContentTypeIfPresent(in: part.headerFields, matches: "application/json")
        return try await converter.getRequiredRequestBodyAsJSON(T.self, from: part.body, transforming: { $0 })
    }
}
