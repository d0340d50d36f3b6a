import FeedsAPI
import FeedsCore
import FeedsWire

extension FeedsAPIImplementation {
    /// Users read the rules too, to check files before sending them.
    func getApp(_ input: Operations.GetApp.Input) async throws -> Operations.GetApp.Output {
        let request = try request
        let settings = try await settingsStore.settings(logger: request.logger)
        uploads.settings.offer(settings)
        return .ok(.init(body: .json(.init(app: Wire.app(settings, server: request.principal == .server), duration: request.duration))))
    }

    func updateApp(_ input: Operations.UpdateApp.Input) async throws -> Operations.UpdateApp.Output {
        let request = try request
        guard request.principal == .server else {
            throw FeedsError.notAllowed("only the server may change the app settings")
        }
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        if let unsupported = body.additionalProperties.value.keys.sorted().first {
            throw FeedsError.input(
                "\(unsupported) is not a setting this server supports "
                    + "(file_upload_config, image_upload_config, cdn_expiration_seconds, strip_image_metadata, "
                    + "guest_user_creation_disabled, webhook_url, webhook_events, event_hooks)",
                field: unsupported)
        }
        let change = AppSettingsChange(
            fileUploads: body.fileUploadConfig.map(Wire.rulesChange),
            imageUploads: body.imageUploadConfig.map(Wire.rulesChange),
            cdnExpirationSeconds: body.cdnExpirationSeconds.map(Int.init), stripImageMetadata: body.stripImageMetadata,
            guestUserCreationDisabled: body.guestUserCreationDisabled, webhookURL: body.webhookUrl,
            webhookEvents: body.webhookEvents, eventHooks: body.eventHooks.map { $0.map(Wire.eventHookChange) }
        )
        try change.validate()
        // Where events would go is checked before anything is saved (the app chooses it).
        for (url, field) in change.webhookURLs { try await webhookAddresses.check(url, field: field) }
        // This node takes the change at once; the others hear of it through NOTIFY.
        uploads.settings.offer(try await settingsStore.update(change, by: "API, server token", logger: request.logger))
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }
}
