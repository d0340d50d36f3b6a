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
                limit: uploads.streamLimit(settings), strippingJPEG: settings.stripImageMetadata)
            let response = try await afterBody("AddActivity", files: multipart.files.map(\.file)) { [self] in
                try await idempotency.run(
                    key: key, principal: request.principal, logger: request.logger,
                    content: ["AddActivity", try Idempotency.canonical(multipart.request)]
                        + multipart.files.map { "\($0.file.part)=\($0.file.sha256)" }
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
                        multipart.request, uploads: multipart.files, settings: settings, recording: recording, request: request)
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
            key: key, principal: request.principal, logger: request.logger,
            content: ["AddActivity", try Idempotency.canonical(body)]
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

    /// The request as the `Activities` service takes it: checked, then added.
    private func add(
        _ body: Components.Schemas.AddActivityRequest, uploads files: [AttachedFile], settings: AppSettings,
        recording: IdempotentRecord<Activity>?, request: AuthenticatedRequest
    ) async throws -> Activity {
        let item = try item(body, files: files.count, request: request)
        return try await activities.add(
            item.draft, given: item.given, files: files, pollID: body.pollId, mentions: item.mentions,
            enrich: body.skipEnrichUrl != true, push: item.push, settings: settings, recording: recording,
            principal: request.principal,
            logger: request.logger)
    }

    func upsertActivities(_ input: Operations.UpsertActivities.Input) async throws -> Operations.UpsertActivities.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        guard (1...ActivityQuery.maxLimit).contains(body.activities.count) else {
            throw FeedsError.input("activities holds 1 to \(ActivityQuery.maxLimit) activities", field: "activities")
        }
        var items: [Activities<Store>.UpsertItem] = []
        for (index, activity) in body.activities.enumerated() {
            do {
                if activity.pollId != nil { throw FeedsError.input("a poll is posted with AddActivity", field: "poll_id") }
                let item = try item(activity, files: 0, request: request)
                // Two items of one id would depend on their order: name each once.
                if items.contains(where: { $0.draft.id == item.draft.id }) {
                    throw FeedsError.input("activity \(item.draft.id) is upserted twice", field: "id")
                }
                items.append(item)
            } catch let error as FeedsError {
                throw error.inBatch("activities", index)
            }
        }
        let written = try await activities.upsert(items, principal: request.principal, logger: request.logger)
        return .created(.init(body: .json(.init(activities: try written.map(wire), duration: request.duration))))
    }

    /// An AddActivity body, checked: its draft, its attachments by URL, and whom it mentions when
    /// it asks for their notifications.
    private func item(_ body: Components.Schemas.AddActivityRequest, files: Int, request: AuthenticatedRequest) throws
        -> Activities<Store>.UpsertItem
    {
        try DeclaredBounds.check(body)
        if files == 0, !(body.attachmentUploads ?? []).isEmpty {
            throw FeedsError.input("attachment_uploads needs a multipart/form-data request", field: "attachment_uploads")
        }
        var draft = try ActivityDraft(
            id: body.id, type: body._type, userID: try request.actingUser(body.userId), text: body.text, feeds: body.feeds,
            visibility: body.visibility?.rawValue, visibilityTag: body.visibilityTag,
            restrictReplies: body.restrictReplies?.rawValue,
            custom: try body.custom.map { try FreeForm.object($0.additionalProperties) }, attachments: nil)
        draft.expiresAt = try ActivityDraft.expiry(try Wire.date(body.expiresAt, field: "expires_at"))
        draft.parentID = body.parentId.flatMap { $0.isEmpty ? nil : $0 }
        draft.mentionedUserIDs = try Mentions.checked(body.mentionedUserIds)
        return Activities<Store>.UpsertItem(
            draft: draft, given: try body.attachments?.map { try recode($0) } ?? [],
            mentions: body.createNotificationActivity == true ? draft.mentionedUserIDs : nil, push: body.skipPush != true)
    }

    func getActivity(_ input: Operations.GetActivity.Input) async throws -> Operations.GetActivity.Output {
        let request = try request
        try DeclaredBounds.commentLimit(input.query.commentLimit)
        // A server call naming a user gets that user's own fields (reactions, bookmarks, hidden).
        let reader = try request.principal.actingUser(requested: input.query.userId)
        var read = ActivityQuery.one(input.path.id, viewer: request.principal, ownFieldsOf: reader)
        read.leavesOutBlocked = true
        guard let found = try await store.queryActivities(read, logger: request.logger).activities.first
        else {
            throw FeedsError.notFound("activity \(input.path.id) does not exist")
        }
        let activity = try await withCurrentFeeds([found], in: nil, reader: reader, request: request)[0]
        return .ok(.init(body: .json(.init(activity: try wire(activity), duration: request.duration))))
    }

    func updateActivity(_ input: Operations.UpdateActivity.Input) async throws -> Operations.UpdateActivity.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        try DeclaredBounds.check(body)
        _ = try request.principal.actingUser(requested: body.userId)
        let custom: JSONObject = try body.custom.map { try FreeForm.object($0.additionalProperties) } ?? [:]
        let poll = body.pollId.flatMap { $0.isEmpty ? nil : $0 }
        let mentions = try Mentions.checked(body.mentionedUserIds)
        let activity = try await activities.update(
            input.path.id, given: try body.attachments?.map { try recode($0) } ?? [], poll: poll,
            attachmentsField: "attachments", feedsField: "feeds", parentField: "parent_id",
            notifyMentions: body.handleMentionNotifications == true, enrich: body.skipEnrichUrl == true ? nil : .some(body.text),
            principal: request.principal, logger: request.logger
        ) { current, linked in
            // A full replace: what the body leaves out is cleared, but the type, owner, feeds,
            // poll and the activity it shares stay (UpdateActivityPartial's unset takes those off).
            var draft = try ActivityDraft(
                id: current.id, type: current.type, userID: current.user.id, text: body.text,
                feeds: body.feeds ?? current.feeds, visibility: body.visibility?.rawValue,
                visibilityTag: body.visibilityTag, restrictReplies: body.restrictReplies?.rawValue, custom: custom,
                attachments: linked)
            draft.pollID = poll ?? current.pollID
            draft.parentID = current.parentID
            draft.mentionedUserIDs = mentions
            return draft
        }
        return .created(.init(body: .json(.init(activity: try wire(activity), duration: request.duration))))
    }

    func updateActivityPartial(_ input: Operations.UpdateActivityPartial.Input) async throws
        -> Operations.UpdateActivityPartial.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        _ = try request.principal.actingUser(requested: body.userId)
        let patch = ActivityPatch(set: try body.set.map { try recode($0) } ?? [:], unset: body.unset ?? [])
        let activity = try await activities.update(
            input.path.id, given: try patch.requestedAttachments(), poll: try patch.requestedPoll(),
            parent: try patch.requestedParent(), attachmentsField: "set.attachments", feedsField: "set.feeds",
            parentField: "set.parent_id", notifyMentions: body.handleMentionNotifications == true,
            enrich: try patch.requestedText(), principal: request.principal, logger: request.logger
        ) { current, linked in try patch.apply(to: current, linked: linked) }
        return .ok(.init(body: .json(.init(activity: try wire(activity), duration: request.duration))))
    }

    func updateActivitiesPartialBatch(_ input: Operations.UpdateActivitiesPartialBatch.Input) async throws
        -> Operations.UpdateActivitiesPartialBatch.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        guard (1...ActivityQuery.maxLimit).contains(body.changes.count) else {
            throw FeedsError.input("changes holds 1 to \(ActivityQuery.maxLimit) changes", field: "changes")
        }
        var patches: [(id: String, patch: ActivityPatch)] = []
        for (index, change) in body.changes.enumerated() {
            guard (1...255).contains(change.activityId.utf8.count) else {
                throw FeedsError.input("an activity id is 1 to 255 bytes", field: "changes[\(index)].activity_id")
            }
            // Two changes to one activity would depend on their order: name each once.
            guard !patches.contains(where: { $0.id == change.activityId }) else {
                throw FeedsError.input("activity \(change.activityId) is changed twice", field: "changes[\(index)].activity_id")
            }
            do {
                let patch = ActivityPatch(set: try change.set.map { try recode($0) } ?? [:], unset: change.unset ?? [])
                try patch.check()
                patches.append((change.activityId, patch))
            } catch let error as FeedsError {
                throw error.inBatch("changes", index)
            }
        }
        let updated = try await activities.update(batch: patches, principal: request.principal, logger: request.logger)
        return .ok(.init(body: .json(.init(activities: try updated.map(wire), duration: request.duration))))
    }

    /// ActivityFeedback: `hide` takes the activity off the feed pages its reader reads.
    func activityFeedback(_ input: Operations.ActivityFeedback.Input) async throws -> Operations.ActivityFeedback.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let user = try Self.actingUser(request, body.userId ?? body.user?.id)
        let change = try ActivityFeedbackChange(hide: body.hide, showLess: body.showLess, showMore: body.showMore)
        let feedback = try await activities.feedback(
            change, on: input.path.id, userID: user, principal: request.principal, logger: request.logger)
        return .created(.init(body: .json(.init(activityId: feedback.activityID, duration: request.duration))))
    }

    func deleteActivity(_ input: Operations.DeleteActivity.Input) async throws -> Operations.DeleteActivity.Output {
        let request = try request
        let deleted = try await activities.delete(
            [input.path.id], hard: input.query.hardDelete ?? false, principal: request.principal, logger: request.logger)
        guard !deleted.isEmpty else { throw FeedsError.notFound("activity \(input.path.id) does not exist") }
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    /// RestoreActivity: a soft-deleted activity back, by its owner or the server; `feeds.activity.restored`.
    func restoreActivity(_ input: Operations.RestoreActivity.Input) async throws -> Operations.RestoreActivity.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let reader = try request.principal.actingUser(requested: body.userId ?? body.user?.id)
        let activity = try await activities.restore(
            input.path.id, reader: reader, principal: request.principal, logger: request.logger)
        return .created(.init(body: .json(.init(activity: try wire(activity), duration: request.duration))))
    }

    func deleteActivities(_ input: Operations.DeleteActivities.Input) async throws -> Operations.DeleteActivities.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        _ = try request.principal.actingUser(requested: body.userId)
        guard (1...ActivityQuery.maxLimit).contains(body.ids.count) else {
            throw FeedsError.input("ids must name 1 to \(ActivityQuery.maxLimit) activities", field: "ids")
        }
        let deleted = try await activities.delete(
            body.ids, hard: body.hardDelete ?? false, principal: request.principal, logger: request.logger)
        return .created(.init(body: .json(.init(deletedIds: deleted, duration: request.duration))))
    }
}
