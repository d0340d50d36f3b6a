import FeedsCore

/// The upload rules as a table, files beside images.
enum SettingsTable {
    static func render(_ settings: AppSettings) -> String {
        let file = settings.fileUploads
        let image = settings.imageUploads
        let rows: [(String, String, String)] = [
            ("", "files (file_upload_config)", "images (image_upload_config)"),
            (
                "allowed extensions", allowed(file.allowedFileExtensions, dot: true),
                allowed(image.allowedFileExtensions, dot: true)
            ),
            (
                "blocked extensions", blocked(file.blockedFileExtensions, dot: true),
                blocked(image.blockedFileExtensions, dot: true)
            ),
            ("allowed MIME types", allowed(file.allowedMimeTypes), allowed(image.allowedMimeTypes)),
            ("blocked MIME types", blocked(file.blockedMimeTypes), blocked(image.blockedMimeTypes)),
            ("size limit", size(file), size(image)),
        ]
        let first = rows.map(\.0.count).max()! + 3
        let second = rows.map(\.1.count).max()! + 3
        var lines = rows.map { row in
            row.0.padding(toLength: first, withPad: " ", startingAt: 0)
                + row.1.padding(toLength: second, withPad: " ", startingAt: 0) + row.2
        }
        lines.append("")
        lines.append("URL lifetime (cdn_expiration_seconds): " + SettingsText.duration(settings.cdnExpirationSeconds))
        lines.append(
            "Photo metadata (strip_image_metadata): "
                + (settings.stripImageMetadata ? "on, stored without location and identifying metadata" : "off, stored as sent"))
        lines.append(
            "Guests (guest_user_creation_disabled): "
                + (settings.guestUserCreationDisabled ? "refused" : "allowed: CreateGuest mints a user for anyone with the API key"))
        let hooks = settings.webhooks.targets
        lines.append("Webhooks (webhook_url, event_hooks): " + (hooks.isEmpty ? "none" : ""))
        for hook in hooks {
            lines.append("  \(hook.url)  " + (hook.eventTypes.isEmpty ? "every event" : hook.eventTypes.joined(separator: " ")))
        }
        return lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }.joined(separator: "\n")
    }

    private static func allowed(_ list: [String], dot: Bool = false) -> String {
        list.isEmpty ? "any" : list.map { dot ? ".\($0)" : $0 }.joined(separator: " ")
    }

    private static func blocked(_ list: [String], dot: Bool = false) -> String {
        list.isEmpty ? "none" : list.map { dot ? ".\($0)" : $0 }.joined(separator: " ")
    }

    private static func size(_ rules: UploadRules) -> String {
        rules.sizeLimit == 0 ? "\(SettingsText.size(UploadRules.maximumSize)) (default)" : SettingsText.size(rules.sizeLimit)
    }
}
