/// The app's settings an admin changes at run time: the upload rules and how long handed-out
/// URLs live. One row per app in the database, versioned; every node keeps a copy in memory.
public struct AppSettings: Sendable, Equatable {
    /// Governs `/uploads/file` and attachment uploads of any type but `image`.
    public var fileUploads: UploadRules
    /// Governs `/uploads/image` and attachment uploads of type `image`.
    public var imageUploads: UploadRules
    /// How long a signed URL handed out now stays valid.
    public var cdnExpirationSeconds: Int
    /// Whether uploaded photos are stored without their location and identifying metadata.
    public var stripImageMetadata: Bool
    /// Whether CreateGuest is refused (the default: it mints users for anyone with the API key).
    public var guestUserCreationDisabled = true
    /// Where events also go: the app's backend (`webhook_url`, `webhook_events`, `event_hooks`).
    public var webhooks = WebhookSettings()
    /// The feed groups (changed through their own calls, versioned with the rest).
    public var feedGroups: FeedGroups
    /// What members, followers and other users may do at each feed visibility level (UpdateFeedVisibility).
    public var feedGrants = FeedGrants.defaults
    /// Bumped by every change; a node keeps the highest it has seen.
    public var version: Int64

    /// Stream's range for `cdn_expiration_seconds`: 4 hours to 14 days.
    public static let cdnExpirationRange = 14_400...1_209_600
    /// The default: 14 days, the longest.
    public static let defaultCDNExpirationSeconds = 1_209_600

    /// What a new app starts with: everything allowed, 100 MB, 14-day URLs, photos stripped, no guests.
    public static let defaults = AppSettings(
        fileUploads: .open, imageUploads: .open, cdnExpirationSeconds: defaultCDNExpirationSeconds, version: 0)

    public init(
        fileUploads: UploadRules, imageUploads: UploadRules, cdnExpirationSeconds: Int, stripImageMetadata: Bool = true,
        feedGroups: FeedGroups = FeedGroups(), version: Int64
    ) {
        self.fileUploads = fileUploads
        self.imageUploads = imageUploads
        self.cdnExpirationSeconds = cdnExpirationSeconds
        self.stripImageMetadata = stripImageMetadata
        self.feedGroups = feedGroups
        self.version = version
    }

    /// The rules for an upload: image rules for images, file rules for everything else.
    public func rules(forImage image: Bool) -> (rules: UploadRules, name: String) {
        image ? (imageUploads, "image_upload_config") : (fileUploads, "file_upload_config")
    }

    /// The most bytes any single upload may have under either rule set.
    public var largestSizeLimit: Int64 { max(fileUploads.effectiveSizeLimit, imageUploads.effectiveSizeLimit) }
}
