import FeedsAPI
import FeedsCore

extension Wire {
    /// The app settings in Stream's shape: the settings this server implements, and fixed
    /// values for the fields the shape requires but this server has no use for. Where events go
    /// (`webhook_url`, `event_hooks`) is shown to the server only.
    package static func app(_ settings: AppSettings, server: Bool) -> Components.Schemas.AppResponseFields {
        let webhooks = server ? settings.webhooks : WebhookSettings()
        return .init(
            allowMultiUserDevices: false, asyncUrlEnrichEnabled: false, autoTranslationEnabled: false,
            callTypes: .init(), campaignEnabled: false, cdnExpirationSeconds: Int32(settings.cdnExpirationSeconds),
            channelConfigs: .init(), customActionHandlerUrl: "", disableAuthChecks: false, disablePermissionsChecks: false,
            enforceUniqueUsernames: "no", eventHooks: webhooks.hooks.map(eventHook), feedAuditLogsEnabled: false,
            fileUploadConfig: uploadConfig(settings.fileUploads), grants: .init(), guestUserCreationDisabled: settings.guestUserCreationDisabled,
            id: 1, imageModerationEnabled: false, imageUploadConfig: uploadConfig(settings.imageUploads),
            maxAggregatedActivitiesLength: 0, memberCustomOnMentionedUsersEnabled: false, memberCustomOnMessagesEnabled: false,
            memberCustomOnTypingEventsEnabled: false,
            moderationAudioCallModerationEnabled: false, moderationEnabled: false, moderationKeyframeVideoEnabled: false,
            moderationLlmConfigurabilityEnabled: false, moderationMultitenantBlocklistEnabled: false,
            moderationVideoCallModerationEnabled: false, moderationWebhookUrl: "", multiTenantEnabled: false,
            name: "feeds", organization: "", permissionVersion: "v2", placement: "", policies: .init(),
            pushNotifications: .init(
                apn: .init(development: false, enabled: false), firebase: .init(enabled: false),
                huawei: .init(enabled: false), offlineOnly: false, version: "v3", xiaomi: .init(enabled: false)),
            remindersInterval: 0, snsKey: "", snsSecret: "", snsTopicArn: "", sqsKey: "", sqsSecret: "", sqsUrl: "",
            stripImageMetadata: settings.stripImageMetadata,
            suspended: false, suspendedExplanation: "", useHookV2: false, userResponseTimeEnabled: false,
            userSearchDisallowedRoles: [], webhookEvents: webhooks.events, webhookUrl: webhooks.url
        )
    }

    package static func eventHook(_ hook: WebhookHook) -> Components.Schemas.EventHook {
        .init(
            id: hook.id, hookType: "webhook", webhookUrl: hook.url, eventTypes: hook.eventTypes, enabled: hook.enabled,
            timeoutMs: Int32(hook.timeoutMs), createdAt: WireTime.nanoseconds(hook.createdAt),
            updatedAt: WireTime.nanoseconds(hook.updatedAt))
    }

    package static func eventHookChange(_ hook: Components.Schemas.EventHook) -> WebhookHook.Change {
        .init(
            id: hook.id, hookType: hook.hookType, url: hook.webhookUrl, eventTypes: hook.eventTypes,
            enabled: hook.enabled, timeoutMs: hook.timeoutMs.map(Int.init))
    }

    package static func uploadConfig(_ rules: UploadRules) -> Components.Schemas.FileUploadConfig {
        .init(
            allowedFileExtensions: rules.allowedFileExtensions, allowedMimeTypes: rules.allowedMimeTypes,
            blockedFileExtensions: rules.blockedFileExtensions, blockedMimeTypes: rules.blockedMimeTypes,
            sizeLimit: Int32(rules.sizeLimit)
        )
    }

    package static func rulesChange(_ config: Components.Schemas.FileUploadConfigChange) -> AppSettingsChange.Rules {
        .init(
            allowedFileExtensions: config.allowedFileExtensions, blockedFileExtensions: config.blockedFileExtensions,
            allowedMimeTypes: config.allowedMimeTypes, blockedMimeTypes: config.blockedMimeTypes,
            sizeLimit: config.sizeLimit.map(Int64.init)
        )
    }
}
