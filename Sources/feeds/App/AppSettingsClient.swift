import AsyncHTTPClient
import FeedsCore
import FeedsHTTP
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// `GET` and `PATCH /api/v2/app` with a server token minted from the secret.
struct AppSettingsClient {
    let baseURL: String
    let apiKey: String
    let apiSecret: String

    /// The settings as the server reports them.
    func settings() async throws -> AppSettings {
        let body = try await send(.GET, body: nil)
        return try JSONDecoder().decode(AppEnvelope.self, from: body).app.settings
    }

    /// Sends a change; the server validates it and refuses bad values with the field at fault.
    func update(_ change: AppSettingsChange) async throws {
        _ = try await send(.PATCH, body: try JSONEncoder().encode(ChangeBody(change)))
    }

    private func send(_ method: HTTPMethod, body: Data?) async throws -> Data {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        let token = try await Authenticator(apiKey: apiKey, apiSecret: apiSecret)
            .token(userID: nil, expiresAt: Date().addingTimeInterval(300))
        var request = HTTPClientRequest(url: "\(base)/api/v2/app?api_key=\(apiKey)")
        request.method = method
        request.headers.add(name: "Authorization", value: token)
        request.headers.add(name: "Stream-Auth-Type", value: "jwt")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: body))
        }
        let response: HTTPClientResponse
        do {
            // A server that is down is reported within seconds (the client retries connecting until then).
            response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
        } catch {
            throw CLIError("cannot reach the server at \(base): \(error)")
        }
        let data = Data(buffer: try await response.body.collect(upTo: 1 << 20))
        guard (200..<300).contains(response.status.code) else {
            let failure = try? JSONDecoder().decode(APIFailure.self, from: data)
            let fields = failure?.exceptionFields.map { " (\($0.keys.sorted().joined(separator: ", ")))" } ?? ""
            throw CLIError("the server refused: \(failure?.message ?? "HTTP \(response.status.code)")\(fields)")
        }
        return data
    }
}

/// A failure to print without a stack of Swift types around it.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private struct AppEnvelope: Decodable {
    struct Fields: Decodable {
        var fileUploadConfig: UploadRules
        var imageUploadConfig: UploadRules
        var cdnExpirationSeconds: Int

        var settings: AppSettings {
            AppSettings(
                fileUploads: fileUploadConfig, imageUploads: imageUploadConfig, cdnExpirationSeconds: cdnExpirationSeconds,
                version: 0)
        }

        enum CodingKeys: String, CodingKey {
            case fileUploadConfig = "file_upload_config"
            case imageUploadConfig = "image_upload_config"
            case cdnExpirationSeconds = "cdn_expiration_seconds"
        }
    }
    var app: Fields
}

private struct APIFailure: Decodable {
    var message: String
    var exceptionFields: [String: String]?

    enum CodingKeys: String, CodingKey {
        case message
        case exceptionFields = "exception_fields"
    }
}

/// The change as `PATCH /app` takes it; what is nil is left out.
private struct ChangeBody: Encodable {
    let change: AppSettingsChange
    init(_ change: AppSettingsChange) { self.change = change }

    struct Rules: Encodable {
        let rules: AppSettingsChange.Rules
        enum CodingKeys: String, CodingKey {
            case allowed = "allowed_file_extensions", blocked = "blocked_file_extensions"
            case allowedTypes = "allowed_mime_types", blockedTypes = "blocked_mime_types", size = "size_limit"
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(rules.allowedFileExtensions, forKey: .allowed)
            try container.encodeIfPresent(rules.blockedFileExtensions, forKey: .blocked)
            try container.encodeIfPresent(rules.allowedMimeTypes, forKey: .allowedTypes)
            try container.encodeIfPresent(rules.blockedMimeTypes, forKey: .blockedTypes)
            try container.encodeIfPresent(rules.sizeLimit, forKey: .size)
        }
    }

    enum CodingKeys: String, CodingKey {
        case file = "file_upload_config", image = "image_upload_config", expiration = "cdn_expiration_seconds"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(change.fileUploads.map(Rules.init), forKey: .file)
        try container.encodeIfPresent(change.imageUploads.map(Rules.init), forKey: .image)
        try container.encodeIfPresent(change.cdnExpirationSeconds, forKey: .expiration)
    }
}
