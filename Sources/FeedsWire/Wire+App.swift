import FeedsAPI
import FeedsCore

extension Wire {
    /// The app settings in Stream's shape: the settings this server implements, and fixed
    /// values for the fields the shape requires but this server has no use for.
    package static func app(_ settings: AppSettings) -> Components.Schemas.AppResponseFields {
        .init(
            allowMultiUserDevices: false, asyncUrlEnrichEnabled: false, autoTranslationEnabled: false,
            callTypes: .init(), campaignEnabled: false, cdnExpirationSeconds: Int32(settings.cdnExpirationSeconds),
            channelConfigs: .init(), customActionHandlerUrl: "", disableAuthChecks: false, disablePermissionsChecks: false,
            enforceUniqueUsernames: "no", eventHooks: [], feedAuditLogsEnabled: false,
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
            userSearchDisallowedRoles: [], webhookEvents: [], webhookUrl: ""
        )
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
