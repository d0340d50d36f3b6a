import AsyncHTTPClient
import FeedsAuth
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
        _ = try await send(.PATCH, body: try JSONEncoder().encode(change))
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
            // Long enough for a busy server to answer, short enough that one that is down is
            // reported while the admin still waits (the client retries connecting until then).
            response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
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
        var stripImageMetadata: Bool?
        var guestUserCreationDisabled: Bool?
        var webhookURL: String?
        var webhookEvents: [String]?
        var eventHooks: [Hook]?

        /// What the table shows of a hook.
        struct Hook: Decodable {
            var id: String?
            var webhookURL: String?
            var eventTypes: [String]?
            var enabled: Bool?

            enum CodingKeys: String, CodingKey {
                case id, enabled
                case webhookURL = "webhook_url"
                case eventTypes = "event_types"
            }
        }

        var settings: AppSettings {
            var settings = AppSettings(
                fileUploads: fileUploadConfig, imageUploads: imageUploadConfig, cdnExpirationSeconds: cdnExpirationSeconds,
                stripImageMetadata: stripImageMetadata ?? true, version: 0)
            settings.guestUserCreationDisabled = guestUserCreationDisabled ?? true
            settings.webhooks = WebhookSettings(
                url: webhookURL ?? "", events: webhookEvents ?? [],
                hooks: (eventHooks ?? []).map {
                    WebhookHook(id: $0.id ?? "", url: $0.webhookURL ?? "", eventTypes: $0.eventTypes ?? [], enabled: $0.enabled ?? true)
                })
            return settings
        }

        enum CodingKeys: String, CodingKey {
            case fileUploadConfig = "file_upload_config"
            case imageUploadConfig = "image_upload_config"
            case cdnExpirationSeconds = "cdn_expiration_seconds"
            case stripImageMetadata = "strip_image_metadata"
            case guestUserCreationDisabled = "guest_user_creation_disabled"
            case webhookURL = "webhook_url"
            case webhookEvents = "webhook_events"
            case eventHooks = "event_hooks"
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
