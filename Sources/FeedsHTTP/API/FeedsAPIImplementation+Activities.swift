import FeedsAPI
import FeedsCore
import FeedsServices
import FeedsUploads
import FeedsWire
import NIOConcurrencyHelpers
import NIOCore

extension FeedsAPIImplementation {
    /// Answered by the generated handler for multipart bodies only: `AddActivityRoute` answers
    /// the rest, with `addActivity(_:idempotencyKey:)`.
    func addActivity(_ input: Operations.AddActivity.Input) async throws -> Operations.AddActivity.Output {
        let request = try request
        let key = input.headers.idempotencyKey
        switch input.body {
        case .json:
            throw FeedsError(.internal, "a JSON AddActivity is answered by AddActivityRoute")
        case .multipartForm(let parts):
            // The rules in force when the upload started are the ones it finishes under.
            let settings = uploads.settings.current
            let tempFiles = TempFiles()
            defer { tempFiles.removeAll() }
            let multipart = try await MultipartWithFiles<Components.Schemas.AddActivityRequest>.read(
                parts, name: "activity",
                classify: { part in
                    switch part {
                    case .activity(let activity): .request(activity.payload.body)
                    case .undocumented(let raw): .file(raw)
                    }
                },
                uploadsOf: \.attachmentUploads, into: uploads.tempDirectory, tempFiles: tempFiles,
                limit: uploads.streamLimit(settings))
            let response = try await afterBody("AddActivity", files: multipart.uploads.map(\.file)) { [self] in
                try await idempotency.run(
                    key: key, request: request,
                    content: ["AddActivity", try Idempotency.canonical(multipart.request)]
                        + multipart.uploads.map { "\($0.upload.file)=\($0.file.sha256)" }
                ) { claim in
                    let urls = uploads.urls
                    let respond: @Sendable (Activity) throws -> Components.Schemas.AddActivityResponse = { activity in
                        Components.Schemas.AddActivityResponse(
                            activity: try Wire.activity(activity, urls: urls), duration: request.duration)
                    }
                    // The reply recorded with the write is the one sent (the same signed URLs).
                    let recorded = NIOLockedValueBox<Components.Schemas.AddActivityResponse?>(nil)
                    let recording = claim?.record { activity in
                        let response = try respond(activity)
                        recorded.withLockedValue { $0 = response }
                        return try Idempotency.recorded(response)
                    }
                    let activity = try await add(
                        multipart.request, uploads: multipart.uploads, settings: settings, recording: recording, request: request)
                    return try recorded.withLockedValue { $0 } ?? respond(activity)
                }
            }
            return .created(.init(body: .json(response)))
        }
    }

    /// AddActivity with a JSON body: the reply as `JSONWriter` writes it, which is also what an
    /// idempotent retry gets back, byte for byte.
    func addActivity(_ body: Components.Schemas.AddActivityRequest, idempotencyKey key: String?) async throws -> ByteBuffer {
        let request = try request
        return try await idempotency.run(
            key: key, request: request, content: ["AddActivity", try Idempotency.canonical(body)]
        ) { claim in
            let urls = uploads.urls
            let render: @Sendable (Activity) -> ByteBuffer = { activity in
                var json = JSONWriter(capacity: 2048)
                var users: [String: [UInt8]] = [:]
                json.object { json in
                    json.key("activity")
                    json.activity(activity, urls: urls, users: &users)
                    json.field("duration", request.duration)
                }
                return json.buffer
            }
            // The reply recorded with the write is the one sent, so a retry gets the same bytes.
            let recorded = NIOLockedValueBox<ByteBuffer?>(nil)
            let recording = claim?.record { activity in
                let reply = render(activity)
                recorded.withLockedValue { $0 = reply }
                return Array(reply.readableBytesView)
            }
            let activity = try await add(
                body, uploads: [], settings: uploads.settings.current, recording: recording, request: request)
            return recorded.withLockedValue { $0 } ?? render(activity)
        }
    }

    /// Validates, stores the files, then writes the activity; if the write fails the files go again.
    private func add(
        _ body: Components.Schemas.AddActivityRequest,
        uploads files: [(upload: Components.Schemas.AttachmentUpload, file: ReceivedFile)],
        settings: AppSettings, recording: IdempotentRecord<Activity>?, request: AuthenticatedRequest
    ) async throws -> Activity {
        try DeclaredBounds.check(body)
        if files.isEmpty, !(body.attachmentUploads ?? []).isEmpty {
            throw FeedsError.input("attachment_uploads needs a multipart/form-data request", field: "attachment_uploads")
        }
        let userID = try request.actingUser(body.userId)
        let given = try await uploads.linker.link(
            try body.attachments?.map { try recode($0) } ?? [], principal: request.principal, logger: request.logger
        )
        var draft = try ActivityDraft(
            id: body.id, type: body._type, userID: userID, text: body.text, feeds: body.feeds,
            visibility: body.visibility?.rawValue, visibilityTag: body.visibilityTag,
            restrictReplies: body.restrictReplies?.rawValue,
            custom: try body.custom.map { try FreeForm.object($0.additionalProperties) },
            attachments: given
        )
        draft.expiresAt = try ActivityDraft.expiry(try Wire.date(body.expiresAt, field: "expires_at"))
        // The poll is read before the write: the reply recorded in the write's transaction shows it too.
        var recording = recording
        var poll: Poll?
        if let pollID = body.pollId {
            draft.pollID = try await polls.attachable(pollID, to: userID, principal: request.principal, logger: request.logger)
            poll = try await polls.poll(pollID, viewer: request.principal, reader: userID, logger: request.logger)
            recording = recording.map { record in
                IdempotentRecord(principal: record.principal, key: record.key) { [poll] activity in
                    var shown = activity
                    shown.poll = poll
                    return try record.reply(shown)
                }
            }
        }
        try await feedGroups.require(draft.feeds, logger: request.logger)
        let stored = try await storeFiles(files, owner: userID, settings: settings, request: request)
        draft.attachments += stored.map(\.attachment)
        var activity: Activity
        do {
            activity = try await store.addActivity(draft, by: request.principal, recording: recording, logger: request.logger)
        } catch {
            await uploads.discard(stored.map(\.record.key), logger: request.logger)
            throw error
        }
        activity.poll = poll
        events.activity("feeds.activity.added", activity, actor: activity.user)
        if body.createNotificationActivity == true {
            // A mention copies no custom data: AddActivity's copy_custom_to_notification is
            // deprecated in Stream's spec (notification_context carries the target instead).
            let drafts = (body.mentionedUserIds ?? []).map {
                NotificationDraft.mention(of: $0, in: activity, copyCustom: false)
            }
            try await notifier.notifyReaders(drafts, of: activity.id, logger: request.logger)
        }
        return activity
    }

    /// Checks the files a create sent with it (size, sniffed type, the upload rules) and stores
    /// them through the uploader, for an activity or a comment alike; all or none.
    func storeFiles(
        _ files: [(upload: Components.Schemas.AttachmentUpload, file: ReceivedFile)], owner: String, settings: AppSettings,
        request: AuthenticatedRequest
    ) async throws -> [(record: ObjectRecord, attachment: StoredAttachment)] {
        guard !files.isEmpty else { return [] }
        var jobs: [UploadPipeline.Job] = []
        for (index, entry) in files.enumerated() {
            let checked = await uploads.describe(
                try FileChecker.check(
                    entry.file, imageOnly: entry.upload._type == "image", settings: settings,
                    storageLimit: uploads.cdn.maxAttachmentSize, field: "attachment_uploads[\(index)]"),
                attachmentType: entry.upload._type, logger: request.logger)
            jobs.append(UploadPipeline.Job(
                checked: checked, kind: checked.isImage ? .image : .file,
                payload: UploadedPayload.make(
                    for: checked, type: entry.upload._type, title: entry.upload.title,
                    custom: try entry.upload.custom.map { try recode($0) })
            ))
        }
        return try await uploads.store(jobs, owner: owner, logger: request.logger)
    }

    /// Attachments an update sends, linked as a create links them; the objects the activity holds
    /// already may be sent back by its editor, as a GET returned them (read only when an object
    /// is not the caller's). The store's transaction refuses any object claimed for deletion meanwhile.
    private func link(
        _ given: [JSONObject], into id: String, request: AuthenticatedRequest, field: String
    ) async throws -> [StoredAttachment] {
        let (store, logger) = (store, request.logger)
        return try await uploads.linker.link(
            given, principal: request.principal,
            held: {
                let held = try await store.activity(id: id, viewer: .server, logger: logger)?.attachments ?? []
                return Set(held.compactMap(\.objectKey))
            },
            field: field, logger: logger)
    }

    func getActivity(_ input: Operations.GetActivity.Input) async throws -> Operations.GetActivity.Output {
        let request = try request
        try DeclaredBounds.commentLimit(input.query.commentLimit)
        guard let activity = try await store.activity(id: input.path.id, viewer: request.principal, logger: request.logger) else {
            throw FeedsError.notFound("activity \(input.path.id) does not exist")
        }
        return .ok(.init(body: .json(.init(activity: try wire(activity), duration: request.duration))))
    }

    func updateActivity(_ input: Operations.UpdateActivity.Input) async throws -> Operations.UpdateActivity.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        try DeclaredBounds.check(body)
        _ = try request.principal.actingUser(requested: body.userId)
        let custom: JSONObject = try body.custom.map { try FreeForm.object($0.additionalProperties) } ?? [:]
        let given: [JSONObject] = try body.attachments?.map { try recode($0) } ?? []
        let principal = request.principal
        let attachments = try await link(given, into: input.path.id, request: request, field: "attachments")
        let groups = feedGroups.current
        let activity = try await store.updateActivity(id: input.path.id, by: request.principal, logger: request.logger) {
            current in
            guard principal.mayModify(ownedBy: current.user.id) else {
                throw FeedsError.notAllowed("only the owner or the server may update activity \(current.id)")
            }
            // A full replace: what the body leaves out is cleared, but the type, owner and feeds stay.
            let draft = try ActivityDraft(
                id: current.id, type: current.type, userID: current.user.id, text: body.text,
                feeds: body.feeds ?? current.feeds, visibility: body.visibility?.rawValue,
                visibilityTag: body.visibilityTag, restrictReplies: body.restrictReplies?.rawValue, custom: custom,
                attachments: attachments
            )
            try groups.requireAll(draft.feeds)
            return draft
        }
        events.activity("feeds.activity.updated", activity, actor: activity.user)
        return .created(.init(body: .json(.init(activity: try wire(activity), duration: request.duration))))
    }

    func updateActivityPartial(_ input: Operations.UpdateActivityPartial.Input) async throws
        -> Operations.UpdateActivityPartial.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        _ = try request.principal.actingUser(requested: body.userId)
        let patch = ActivityPatch(set: try body.set.map { try recode($0) } ?? [:], unset: body.unset ?? [])
        let principal = request.principal
        var linking: [StoredAttachment]?
        if let given = try patch.requestedAttachments() {
            linking = try await link(given, into: input.path.id, request: request, field: "set.attachments")
        }
        let linked = linking
        let groups = feedGroups.current
        let activity = try await store.updateActivity(id: input.path.id, by: request.principal, logger: request.logger) {
            current in
            guard principal.mayModify(ownedBy: current.user.id) else {
                throw FeedsError.notAllowed("only the owner or the server may update activity \(current.id)")
            }
            let draft = try patch.apply(to: current, linked: linked)
            try groups.requireAll(draft.feeds, field: "set.feeds")
            return draft
        }
        events.activity("feeds.activity.updated", activity, actor: activity.user)
        return .ok(.init(body: .json(.init(activity: try wire(activity), duration: request.duration))))
    }

    func deleteActivity(_ input: Operations.DeleteActivity.Input) async throws -> Operations.DeleteActivity.Output {
        let request = try request
        let principal = request.principal
        let before = try await activitiesForEvents([input.path.id], request: request)
        let deleted = try await store.deleteActivities(
            ids: [input.path.id], hard: input.query.hardDelete ?? false, logger: request.logger,
            mayDelete: { principal.mayModify(ownedBy: $0) }
        )
        guard !deleted.isEmpty else { throw FeedsError.notFound("activity \(input.path.id) does not exist") }
        publishDeleted(before, deleted)
        try await notifier.unnotify(activities: deleted, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    /// RestoreActivity: a soft-deleted activity back, by its owner or the server; `feeds.activity.restored`.
    func restoreActivity(_ input: Operations.RestoreActivity.Input) async throws -> Operations.RestoreActivity.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let reader = try request.principal.actingUser(requested: body.userId ?? body.user?.id)
        let principal = request.principal
        try await store.restoreActivity(
            id: input.path.id, logger: request.logger, mayRestore: { principal.mayModify(ownedBy: $0) })
        guard
            let activity = try await store.queryActivities(
                .one(input.path.id, viewer: principal, ownFieldsOf: reader), logger: request.logger
            ).activities.first
        else { throw FeedsError.notFound("activity \(input.path.id) does not exist") }
        events.activity("feeds.activity.restored", activity, actor: activity.user)
        return .created(.init(body: .json(.init(activity: try wire(activity), duration: request.duration))))
    }

    func deleteActivities(_ input: Operations.DeleteActivities.Input) async throws -> Operations.DeleteActivities.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        _ = try request.principal.actingUser(requested: body.userId)
        guard (1...ActivityQuery.maxLimit).contains(body.ids.count) else {
            throw FeedsError.input("ids must name 1 to \(ActivityQuery.maxLimit) activities", field: "ids")
        }
        let principal = request.principal
        let before = try await activitiesForEvents(body.ids, request: request)
        let deleted = try await store.deleteActivities(
            ids: body.ids, hard: body.hardDelete ?? false, logger: request.logger,
            mayDelete: { principal.mayModify(ownedBy: $0) }
        )
        publishDeleted(before, deleted)
        try await notifier.unnotify(activities: deleted, logger: request.logger)
        return .created(.init(body: .json(.init(deletedIds: deleted, duration: request.duration))))
    }

    /// The activities a delete names, as they were, for its events (a hard delete leaves nothing
    /// to read after): one query, as QueryActivities reads by id.
    private func activitiesForEvents(_ ids: [String], request: AuthenticatedRequest) async throws -> [String: Activity] {
        var query = ActivityQuery(viewer: .server, limit: ActivityQuery.maxLimit)
        query.ids = Array(Set(ids))
        let found = try await store.queryActivities(query, logger: request.logger).activities
        return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private func publishDeleted(_ before: [String: Activity], _ deleted: [String]) {
        for id in deleted {
            if let activity = before[id] { events.activity("feeds.activity.deleted", activity, actor: activity.user) }
        }
    }
}
