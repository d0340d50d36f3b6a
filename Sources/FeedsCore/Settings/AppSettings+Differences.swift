/// What a change did, field by field, for the audit list of the admin console.
extension AppSettings {
    /// One line per setting that differs between `self` and `next`, named as `PATCH /app` names
    /// them (`file_upload_config.blocked_file_extensions: none → exe, bat`).
    public func differences(to next: AppSettings) -> [String] {
        var lines: [String] = []
        for image in [false, true] {
            let (old, name) = rules(forImage: image)
            let new = next.rules(forImage: image).rules
            let lists: [(String, [String], [String])] = [
                ("allowed_file_extensions", old.allowedFileExtensions, new.allowedFileExtensions),
                ("blocked_file_extensions", old.blockedFileExtensions, new.blockedFileExtensions),
                ("allowed_mime_types", old.allowedMimeTypes, new.allowedMimeTypes),
                ("blocked_mime_types", old.blockedMimeTypes, new.blockedMimeTypes),
            ]
            for (field, before, after) in lists where before != after {
                lines.append("\(name).\(field): \(Self.listText(before)) → \(Self.listText(after))")
            }
            if old.sizeLimit != new.sizeLimit {
                lines.append("\(name).size_limit: \(old.sizeLimit) → \(new.sizeLimit)")
            }
        }
        if cdnExpirationSeconds != next.cdnExpirationSeconds {
            lines.append("cdn_expiration_seconds: \(cdnExpirationSeconds) → \(next.cdnExpirationSeconds)")
        }
        if stripImageMetadata != next.stripImageMetadata {
            lines.append("strip_image_metadata: \(stripImageMetadata) → \(next.stripImageMetadata)")
        }
        if guestUserCreationDisabled != next.guestUserCreationDisabled {
            lines.append("guest_user_creation_disabled: \(guestUserCreationDisabled) → \(next.guestUserCreationDisabled)")
        }
        if webhooks.url != next.webhooks.url {
            lines.append("webhook_url: \(webhooks.url.isEmpty ? "none" : webhooks.url) → \(next.webhooks.url.isEmpty ? "none" : next.webhooks.url)")
        }
        if webhooks.events != next.webhooks.events {
            lines.append("webhook_events: \(Self.listText(webhooks.events)) → \(Self.listText(next.webhooks.events))")
        }
        if webhooks.hooks != next.webhooks.hooks {
            let describe = { (hooks: [WebhookHook]) in
                Self.listText(hooks.map { "\($0.url)\($0.enabled ? "" : " (off)")" })
            }
            lines.append("event_hooks: \(describe(webhooks.hooks)) → \(describe(next.webhooks.hooks))")
        }
        let memberRoles = Set(feedGrants.memberRoleNames + next.feedGrants.memberRoleNames).sorted()
        for visibility in FeedVisibility.allCases {
            let text = { (actions: Set<FeedAction>) in Self.listText(actions.map(\.rawValue).sorted()) }
            var changed: [(String, Set<FeedAction>, Set<FeedAction>)] = FeedGrants.roles.map { role, name in
                (name, feedGrants.granted(role, on: visibility), next.feedGrants.granted(role, on: visibility))
            }
            changed += memberRoles.map { name in
                (name, feedGrants.granted(memberRole: name, on: visibility), next.feedGrants.granted(memberRole: name, on: visibility))
            }
            for (name, old, new) in changed where old != new {
                lines.append("feed_visibilities.\(visibility.rawValue).\(name): \(text(old)) → \(text(new))")
            }
        }
        return lines
    }

    private static func listText(_ list: [String]) -> String {
        list.isEmpty ? "none" : list.joined(separator: ", ")
    }
}
