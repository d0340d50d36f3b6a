import FeedsAPI
import FeedsCore
import FeedsServices
import FeedsUploads
import FeedsWire
import Logging

/// AddComment and AddCommentsBatch, GetComment, UpdateComment (PATCH) and ReplaceComment (PUT), DeleteComment, GetComments,
/// GetCommentReplies and QueryComments. Who
/// may do what is the store's to check (`CommentStore`); attachments that link uploads are
/// owner-checked by the same linker as an activity's.
extension FeedsAPIImplementation {
    func addComment(_ input: Operations.AddComment.Input) async throws -> Operations.AddComment.Output {
        let request = try request
        let comment: Comment
        switch input.body {
        case .json(let body):
            comment = try await add(body, files: [], settings: uploads.settings.current, request: request)
        case .multipartForm(let parts):
            // The rules in force when the upload started are the ones it finishes under.
            let settings = uploads.settings.current
            let tempFiles = TempFiles()
            defer { tempFiles.removeAll() }
            let multipart = try await MultipartWithFiles<Components.Schemas.AddCommentRequest>.read(
                parts, name: "comment",
                classify: { part in
                    switch part {
                    case .comment(let comment): .request(comment.payload.body)
                    case .undocumented(let raw): .file(raw)
                    }
                },
                uploadsOf: \.attachmentUploads, into: uploads.tempDirectory, tempFiles: tempFiles,
                limit: uploads.streamLimit(settings), strippingJPEG: settings.stripImageMetadata)
            comment = try await afterBody("AddComment", files: multipart.files.map(\.file)) { [self] in
                try await add(multipart.request, files: multipart.files, settings: settings, request: request)
            }
        }
        return .created(.init(body: .json(.init(comment: try await wire([comment], request)[0], duration: request.duration))))
    }

    func addCommentsBatch(_ input: Operations.AddCommentsBatch.Input) async throws -> Operations.AddCommentsBatch.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        guard (1...CommentDraft.maxBatch).contains(body.comments.count) else {
            throw FeedsError.input("comments holds 1 to \(CommentDraft.maxBatch) comments", field: "comments")
        }
        var items: [Comments<Store>.BatchItem] = []
        for (index, comment) in body.comments.enumerated() {
            do {
                items.append(try item(comment, files: 0, request: request))
            } catch let error as FeedsError {
                throw error.inBatch("comments", index)
            }
        }
        let made = try await comments.add(batch: items, principal: request.principal, logger: request.logger)
        return .created(.init(body: .json(.init(comments: try await wire(made, request), duration: request.duration))))
    }

    /// The request as the `Comments` service takes it: checked, then added.
    private func add(
        _ body: Components.Schemas.AddCommentRequest, files: [AttachedFile], settings: AppSettings, request: AuthenticatedRequest
    ) async throws -> Comment {
        // Checked before any file is stored, so a bad comment stores nothing.
        let item = try item(body, files: files.count, request: request)
        return try await comments.add(
            item.draft, given: item.given, files: files, settings: settings, notify: item.notify,
            enrich: body.skipEnrichUrl != true, principal: request.principal, logger: request.logger)
    }

    /// An AddComment body, checked: its draft, its attachments by URL, and its notification.
    private func item(_ body: Components.Schemas.AddCommentRequest, files: Int, request: AuthenticatedRequest) throws
        -> Comments<Store>.BatchItem
    {
        if let type = body.objectType, type.rawValue != "activity" {
            throw FeedsError.input("object_type is activity", field: "object_type")
        }
        if files == 0, !(body.attachmentUploads ?? []).isEmpty {
            throw FeedsError.input("attachment_uploads needs a multipart/form-data request", field: "attachment_uploads")
        }
        let user = try Self.actingUser(request, body.userId ?? body.user?.id)
        let given: [JSONObject] = try body.attachments?.map { try recode($0) } ?? []
        let draft = try CommentDraft(
            id: body.id, activityID: body.objectId, parentID: body.parentId, userID: user, text: body.comment,
            custom: try body.custom.map { try FreeForm.object($0.additionalProperties) }, mentionedUserIDs: body.mentionedUserIds,
            attachments: [], filesToCome: given.count + files)
        return Comments<Store>.BatchItem(
            draft: draft, given: given,
            notify: NotificationRequest(
                create: body.createNotificationActivity, copyCustom: body.copyCustomToNotification,
                skipPush: body.skipPush))
    }

    func getComment(_ input: Operations.GetComment.Input) async throws -> Operations.GetComment.Output {
        let request = try request
        let own = try request.principal.actingUser(requested: input.query.userId)
        guard
            let comment = try await store.comment(
                id: input.path.id, by: request.principal, ownFieldsOf: own, logger: request.logger)
        else {
            throw FeedsError.notFound("comment \(input.path.id) does not exist")
        }
        return .ok(.init(body: .json(.init(comment: try await wire([comment], request)[0], duration: request.duration))))
    }

    func updateComment(_ input: Operations.UpdateComment.Input) async throws -> Operations.UpdateComment.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let comment = try await change(input.path.id, body, replacing: false, request: request)
        return .ok(.init(body: .json(.init(comment: try await wire([comment], request)[0], duration: request.duration))))
    }

    /// PUT: what is not sent is cleared (PATCH, which Stream's SDKs send, keeps it).
    func replaceComment(_ input: Operations.ReplaceComment.Input) async throws -> Operations.ReplaceComment.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let comment = try await change(input.path.id, body, replacing: true, request: request)
        return .ok(.init(body: .json(.init(comment: try await wire([comment], request)[0], duration: request.duration))))
    }

    private func change(
        _ id: String, _ body: Components.Schemas.UpdateCommentRequest, replacing: Bool, request: AuthenticatedRequest
    ) async throws -> Comment {
        let user = try request.principal.actingUser(requested: body.userId ?? body.user?.id)
        let given = try (body.attachments ?? (replacing ? [] : nil)).map { try $0.map { try recode($0) as JSONObject } }
        let custom = try body.custom.map { try FreeForm.object($0.additionalProperties) }
        let change = try CommentChange(
            text: replacing ? (body.comment ?? "") : body.comment, custom: replacing ? (custom ?? [:]) : custom,
            mentionedUserIDs: replacing ? (body.mentionedUserIds ?? []) : body.mentionedUserIds, attachments: nil)
        return try await comments.update(
            id, change: change, given: given, replacing: replacing, enrich: body.skipEnrichUrl != true, userID: user,
            principal: request.principal, logger: request.logger)
    }

    /// UpdateCommentPartial: `set` and `unset` as `CommentPatch` reads them.
    func updateCommentPartial(_ input: Operations.UpdateCommentPartial.Input) async throws
        -> Operations.UpdateCommentPartial.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let user = try request.principal.actingUser(requested: body.userId ?? body.user?.id)
        let patch = try CommentPatch(set: try FreeForm.object(body.set?.additionalProperties ?? [:]), unset: body.unset ?? [])
        let comment = try await comments.update(
            input.path.id, change: patch.change, given: patch.attachments, userID: user, principal: request.principal,
            logger: request.logger)
        return .created(.init(body: .json(.init(comment: try await wire([comment], request)[0], duration: request.duration))))
    }

    /// RestoreComment: a soft-deleted comment back, by its author or the server.
    func restoreComment(_ input: Operations.RestoreComment.Input) async throws -> Operations.RestoreComment.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        _ = try request.principal.actingUser(requested: body.userId ?? body.user?.id)
        let (comment, shown) = try await comments.restore(input.path.id, principal: request.principal, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(activity: try wire(shown), comment: try await wire([comment], request)[0], duration: request.duration)))
        )
    }

    func deleteComment(_ input: Operations.DeleteComment.Input) async throws -> Operations.DeleteComment.Output {
        let request = try request
        let (comment, shown) = try await comments.delete(
            input.path.id, hard: input.query.hardDelete ?? false, principal: request.principal, logger: request.logger)
        return .ok(
            .init(
                body: .json(
                    .init(activity: try wire(shown), comment: try await wire([comment], request)[0], duration: request.duration)))
        )
    }

    func getComments(_ input: Operations.GetComments.Input) async throws -> Operations.GetComments.Output {
        let q = input.query
        let (threads, next, sort) = try await threads(
            .activity(q.objectId), sort: q.sort?.rawValue, depth: q.depth, repliesLimit: q.repliesLimit, limit: q.limit,
            next: q.next, prev: q.prev, userID: q.userId)
        return .ok(.init(body: .json(.init(comments: threads, duration: try request.duration, next: next, sort: sort))))
    }

    func getCommentReplies(_ input: Operations.GetCommentReplies.Input) async throws -> Operations.GetCommentReplies.Output {
        let q = input.query
        let (threads, next, sort) = try await threads(
            .comment(input.path.id), sort: q.sort?.rawValue, depth: q.depth, repliesLimit: q.repliesLimit, limit: q.limit,
            next: q.next, prev: q.prev, userID: q.userId)
        return .ok(.init(body: .json(.init(comments: threads, duration: try request.duration, next: next, sort: sort))))
    }

    /// A page of threads under `root`, as the wire shows them, its `next` cursor and its sort.
    private func threads(
        _ root: CommentThreadQuery.Root, sort: String?, depth: Int32?, repliesLimit: Int32?, limit: Int32?, next: String?,
        prev: String?, userID: String?
    ) async throws -> ([Components.Schemas.ThreadedCommentResponse], String?, String) {
        let request = try request
        var query = try CommentThreadQuery(
            root: root, sort: sort, depth: depth.map(Int.init), repliesLimit: repliesLimit.map(Int.init),
            limit: limit.map(Int.init),
            next: next, prev: prev)
        query.ownFieldsOf = try request.principal.actingUser(requested: userID)
        let page = try await store.commentThreads(query, by: request.principal, logger: request.logger)
        return (try await threads(page, request), page.next?.token(kind: CommentThreadQuery.cursorKind), query.sort.rawValue)
    }

    func queryComments(_ input: Operations.QueryComments.Input) async throws -> Operations.QueryComments.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        var query = try CommentQuery(
            filter: try recode(body.filter), sort: body.sort?.rawValue, limit: body.limit.map(Int.init), next: body.next,
            prev: body.prev)
        query.ownFieldsOf = try request.principal.actingUser(requested: body.userId ?? body.user?.id)
        let (comments, next) = try await store.queryComments(query, by: request.principal, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        comments: try await wire(comments, request), duration: request.duration,
                        next: next?.token(kind: CommentThreadQuery.cursorKind)))))
    }

    // MARK: - Parts

    /// Comments as the wire shows them, with the users they mention read in one query.
    func wire(_ comments: [Comment], _ request: AuthenticatedRequest) async throws -> [Components.Schemas.CommentResponse] {
        let mentioned = try await self.comments.mentionedUsers(comments, logger: request.logger)
        return try comments.map { try Wire.comment($0, urls: uploads.urls, mentioned: mentioned) }
    }

    private func threads(_ page: CommentPage, _ request: AuthenticatedRequest) async throws
        -> [Components.Schemas.ThreadedCommentResponse]
    {
        func all(_ threads: [CommentThread]) -> [Comment] { threads.flatMap { [$0.comment] + all($0.replies) } }
        let mentioned = try await comments.mentionedUsers(all(page.threads), logger: request.logger)
        return try page.threads.map { try Wire.thread($0, urls: uploads.urls, mentioned: mentioned) }
    }
}
