import FeedsAPI
import FeedsCore
import Foundation
@_spi(Generated) import OpenAPIRuntime

// The decoding closures of the generated `Server.swift` for the four multipart operations, part
// for part: the same converter calls, so the typed parts and their errors are the same.

extension Operations.UploadFile.Input.Body.MultipartFormPayload: FastMultipartPayload {
    static let atMostOncePartNames: Set<String> = ["file", "user"]

    static func decode(_ part: MultipartRawPart, converter: Converter) async throws -> Self {
        let decoder = PartDecoder(part: part, converter: converter)
        return switch try decoder.name() {
        case "file": .file(.init(payload: .init(body: try decoder.binary()), filename: try decoder.fileName()))
        case "user": try await decoder.user { .user(.init(payload: .init(body: $0), filename: try decoder.fileName())) }
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
        case "user": try await decoder.user { .user(.init(payload: .init(body: $0), filename: try decoder.fileName())) }
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

extension Operations.AddComment.Input.Body.MultipartFormPayload: FastMultipartPayload {
    static let atMostOncePartNames: Set<String> = ["comment"]

    static func decode(_ part: MultipartRawPart, converter: Converter) async throws -> Self {
        let decoder = PartDecoder(part: part, converter: converter)
        return switch try decoder.name() {
        case "comment": .comment(.init(payload: .init(body: try await decoder.json()), filename: try decoder.fileName()))
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

    /// A JSON part, decoded; over `jsonPartLimit` bytes it is a 413 before it is decoded.
    func json<T: Decodable & Sendable>() async throws -> T {
        try converter.verifyContentTypeIfPresent(in: part.headerFields, matches: "application/json")
        let bytes = try await Self.collect(part.body, name: try name() ?? "part")
        return try await converter.getRequiredRequestBodyAsJSON(T.self, from: HTTPBody(bytes), transforming: { $0 })
    }

    /// The optional `user` part: made by `typed`, or, when it says nothing (empty, or the text
    /// `undefined` that Stream's Node SDK sends for an option left out), an unnamed part the
    /// handler skips, as if it had not been sent.
    func user<Payload>(_ typed: (Components.Schemas.OnlyUserID) throws -> Payload) async throws -> Payload
    where Payload: FastMultipartPayload {
        let bytes = try await Self.collect(part.body, name: "user")
        if Self.saysNothing(bytes) {
            return try await Payload.decode(MultipartRawPart(headerFields: [:], body: HTTPBody()), converter: converter)
        }
        try converter.verifyContentTypeIfPresent(in: part.headerFields, matches: "application/json")
        return try typed(
            try await converter.getRequiredRequestBodyAsJSON(
                Components.Schemas.OnlyUserID.self, from: HTTPBody(bytes), transforming: { $0 }))
    }

    /// Whether an optional part's bytes stand for no value: nothing, blanks, or `undefined`.
    static func saysNothing(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty || text == "undefined" || text == "null"
    }

    /// The most bytes a JSON part (`activity`, `comment`, `user`, `upload_sizes`) may have: whole activities
    /// are far smaller, and each is held in memory while it is decoded.
    static let jsonPartLimit = 1 << 20

    /// A small part's bytes, refused with 413 past `jsonPartLimit`.
    static func collect(_ body: HTTPBody, name: String) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in body {
            guard bytes.count + chunk.count <= jsonPartLimit else {
                throw FeedsError(.payloadTooLarge, "the part \(name) is over \(jsonPartLimit) bytes", field: name)
            }
            bytes += chunk
        }
        return bytes
    }
}

extension HTTPBody {
    /// A small JSON part's bytes (`upload_sizes`, read by its handler), capped like every JSON part.
    func collectingJSONPart(named name: String) async throws -> [UInt8] {
        try await PartDecoder.collect(self, name: name)
    }

    /// Whether an optional part's bytes stand for no value (see `PartDecoder.saysNothing`).
    static func saysNothing(_ bytes: [UInt8]) -> Bool { PartDecoder.saysNothing(bytes) }
}
