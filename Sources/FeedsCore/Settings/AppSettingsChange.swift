import Foundation

/// A change to the settings, as `PATCH /app` sends it: what is not sent keeps its value, down to
/// the single lists of a rule set.
public struct AppSettingsChange: Sendable, Equatable, Encodable {
    /// A change to one rule set.
    public struct Rules: Sendable, Equatable, Encodable {
        public var allowedFileExtensions: [String]?
        public var blockedFileExtensions: [String]?
        public var allowedMimeTypes: [String]?
        public var blockedMimeTypes: [String]?
        public var sizeLimit: Int64?

        public init(
            allowedFileExtensions: [String]? = nil, blockedFileExtensions: [String]? = nil,
            allowedMimeTypes: [String]? = nil, blockedMimeTypes: [String]? = nil, sizeLimit: Int64? = nil
        ) {
            self.allowedFileExtensions = allowedFileExtensions
            self.blockedFileExtensions = blockedFileExtensions
            self.allowedMimeTypes = allowedMimeTypes
            self.blockedMimeTypes = blockedMimeTypes
            self.sizeLimit = sizeLimit
        }

        /// The wire names, as in `UploadRules`; what is nil is left out of the JSON.
        typealias CodingKeys = UploadRules.CodingKeys

        /// The rules with this change applied, validated and normalised; `field` prefixes the
        /// field names in errors (`file_upload_config`).
        func applied(to rules: UploadRules, field: String) throws -> UploadRules {
            var rules = rules
            if let list = allowedFileExtensions {
                rules.allowedFileExtensions = try UploadRules.normalizedExtensions(
                    list, field: "\(field).allowed_file_extensions")
            }
            if let list = blockedFileExtensions {
                rules.blockedFileExtensions = try UploadRules.normalizedExtensions(
                    list, field: "\(field).blocked_file_extensions")
            }
            if let list = allowedMimeTypes {
                rules.allowedMimeTypes = try UploadRules.normalizedMimeTypes(list, field: "\(field).allowed_mime_types")
            }
            if let list = blockedMimeTypes {
                rules.blockedMimeTypes = try UploadRules.normalizedMimeTypes(list, field: "\(field).blocked_mime_types")
            }
            if let sizeLimit {
                rules.sizeLimit = try UploadRules.validatedSizeLimit(sizeLimit, field: "\(field).size_limit")
            }
            return rules
        }
    }

    public var fileUploads: Rules?
    public var imageUploads: Rules?
    public var cdnExpirationSeconds: Int?
    public var stripImageMetadata: Bool?
    public var guestUserCreationDisabled: Bool?
    /// "" takes it away.
    public var webhookURL: String?
    public var webhookEvents: [String]?
    /// The whole list, replacing the one held.
    public var eventHooks: [WebhookHook.Change]?
    /// UpdateFeedVisibility: one level's grants, by role (roles not named keep theirs). Not a
    /// field of `PATCH /app`.
    public var feedGrants: FeedGrants.Change?

    /// As `PATCH /app` takes it.
    enum CodingKeys: String, CodingKey {
        case fileUploads = "file_upload_config"
        case imageUploads = "image_upload_config"
        case cdnExpirationSeconds = "cdn_expiration_seconds"
        case stripImageMetadata = "strip_image_metadata"
        case guestUserCreationDisabled = "guest_user_creation_disabled"
        case webhookURL = "webhook_url"
        case webhookEvents = "webhook_events"
        case eventHooks = "event_hooks"
    }

    public init(
        fileUploads: Rules? = nil, imageUploads: Rules? = nil, cdnExpirationSeconds: Int? = nil, stripImageMetadata: Bool? = nil,
        guestUserCreationDisabled: Bool? = nil, webhookURL: String? = nil, webhookEvents: [String]? = nil,
        eventHooks: [WebhookHook.Change]? = nil
    ) {
        self.webhookURL = webhookURL
        self.webhookEvents = webhookEvents
        self.eventHooks = eventHooks
        self.guestUserCreationDisabled = guestUserCreationDisabled
        self.fileUploads = fileUploads
        self.imageUploads = imageUploads
        self.cdnExpirationSeconds = cdnExpirationSeconds
        self.stripImageMetadata = stripImageMetadata
    }

    /// The webhook URLs this change sets, each with its field, for the caller to check where they
    /// point before it applies.
    public var webhookURLs: [(url: String, field: String)] {
        (webhookURL.map { $0.isEmpty ? [] : [($0, "webhook_url")] } ?? [])
            + (eventHooks ?? []).enumerated().compactMap { index, hook in
                hook.url.map { ($0, "event_hooks[\(index)].webhook_url") }
            }
    }

    /// Validates the whole change before any of it applies; throws a 400 naming the field.
    public func validate() throws {
        _ = try applied(to: .defaults)
    }

    /// The settings with this change applied (the version is the store's to bump).
    public func applied(to settings: AppSettings, now: Date = Date()) throws -> AppSettings {
        var settings = settings
        if let fileUploads {
            settings.fileUploads = try fileUploads.applied(to: settings.fileUploads, field: "file_upload_config")
        }
        if let imageUploads {
            settings.imageUploads = try imageUploads.applied(to: settings.imageUploads, field: "image_upload_config")
        }
        if let seconds = cdnExpirationSeconds {
            guard AppSettings.cdnExpirationRange.contains(seconds) else {
                throw FeedsError.input(
                    "cdn_expiration_seconds must be between \(AppSettings.cdnExpirationRange.lowerBound) (4 hours) and "
                        + "\(AppSettings.cdnExpirationRange.upperBound) (14 days)",
                    field: "cdn_expiration_seconds")
            }
            settings.cdnExpirationSeconds = seconds
        }
        if let strip = stripImageMetadata { settings.stripImageMetadata = strip }
        if let disabled = guestUserCreationDisabled { settings.guestUserCreationDisabled = disabled }
        if let url = webhookURL {
            settings.webhooks.url = url.isEmpty ? "" : try WebhookHook.validatedURL(url, field: "webhook_url").absoluteString
        }
        if let events = webhookEvents {
            settings.webhooks.events = try WebhookHook.validatedEventTypes(events, field: "webhook_events")
        }
        if let eventHooks {
            settings.webhooks.hooks = try WebhookHook.Change.applied(eventHooks, to: settings.webhooks.hooks, now: now)
        }
        if let feedGrants {
            settings.feedGrants = try settings.feedGrants.applying(feedGrants)
        }
        return settings
    }
}
