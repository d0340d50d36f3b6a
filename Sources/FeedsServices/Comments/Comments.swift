import FeedsCore
import FeedsUploads
import Logging

/// Comments' workflow: attachments linked and files stored before the write (given back if it
/// fails), then the events and notifications. Who may do what is the store's to check
/// (`CommentStore`); an upload's owner is checked by the same linker as an activity's.
package struct Comments<Store: ActivityStore>: Sendable {
    let store: Store
    let uploads: Uploads
    let events: Events<Store>
    let notifier: Notifier<Store>
    let links: LinkEnrichment

    package init(store: Store, uploads: Uploads, events: Events<Store>, notifier: Notifier<Store>, links: LinkEnrichment) {
        (self.store, self.uploads, self.events, self.notifier, self.links) = (store, uploads, events, notifier, links)
    }

    /// AddComment: `draft`, checked, with `given` attachments still to link and `files` still to
    /// store; `notify` (copying the custom data or not) when the request asked for a notification;
    /// its text's first link previewed when `enrich` (`LinkEnrichment`).
    package func add(
        _ draft: CommentDraft, given: [JSONObject], files: [AttachedFile], settings: AppSettings, notify: NotificationRequest?,
        enrich: Bool = false, principal: Principal, logger: Logger
    ) async throws -> Comment {
        var draft = draft
        try Self.checkCount(given.count + files.count)
        draft.attachments = try await uploads.pipeline.linker.link(
            given, principal: principal, field: "attachments", logger: logger)
        if enrich, draft.attachments.count + files.count < CommentDraft.maxAttachments {
            let preview = await links.preview(for: draft.text, logger: logger)
            draft.attachments = LinkEnrichment.enriched(draft.attachments, text: draft.text, preview: preview)
        }
        let stored = try await uploads.attach(files, owner: draft.userID, settings: settings, logger: logger)
        draft.attachments += stored.map(\.attachment)
        let comment: Comment
        do {
            comment = try await store.addComment(draft, by: principal, logger: logger)
        } catch {
            await uploads.detach(stored, logger: logger)
            throw error
        }
        events.comment("feeds.comment.added", comment, logger: logger)
        // After the comment stands: a notification that fails is written by the client's retry.
        if let notify { try await notifier.commented(comment, copyCustom: notify.copyCustom, push: notify.push, logger: logger) }
        return comment
    }

    /// One comment of AddCommentsBatch: checked, with its attachments (by URL) still to link.
    package struct BatchItem: Sendable {
        package var draft: CommentDraft
        package var given: [JSONObject]
        package var notify: NotificationRequest?

        package init(draft: CommentDraft, given: [JSONObject], notify: NotificationRequest?) {
            (self.draft, self.given, self.notify) = (draft, given, notify)
        }
    }

    /// AddCommentsBatch: every item's attachments linked, then all of them stored in one
    /// transaction or none; then each one's event and notification, as AddComment's.
    package func add(batch items: [BatchItem], principal: Principal, logger: Logger) async throws -> [Comment] {
        var drafts: [CommentDraft] = []
        for (index, item) in items.enumerated() {
            do {
                var draft = item.draft
                try Self.checkCount(item.given.count)
                draft.attachments = try await uploads.pipeline.linker.link(
                    item.given, principal: principal, field: "attachments", logger: logger)
                drafts.append(draft)
            } catch let error as FeedsError {
                throw error.inBatch("comments", index)
            }
        }
        let made = try await store.addComments(drafts, by: principal, logger: logger)
        for (comment, item) in zip(made, items) {
            events.comment("feeds.comment.added", comment, logger: logger)
            if let notify = item.notify { try await notifier.commented(comment, copyCustom: notify.copyCustom, push: notify.push, logger: logger) }
        }
        return made
    }

    /// UpdateComment, ReplaceComment and UpdateCommentPartial: `change`, with `given` attachments
    /// (nil: unchanged) linked as the comment's; `replacing` needs text or attachments left. With
    /// `enrich`, a change that gives both text and attachments has its text's link previewed.
    package func update(
        _ id: String, change: CommentChange, given: [JSONObject]?, replacing: Bool = false, enrich: Bool = false,
        userID: String?, principal: Principal, logger: Logger
    ) async throws -> Comment {
        var change = change
        if let given { change.attachments = try await link(given, toComment: id, principal: principal, logger: logger) }
        if enrich, let text = change.text, let attachments = change.attachments, attachments.count < CommentDraft.maxAttachments {
            let preview = await links.preview(for: text, logger: logger)
            change.attachments = LinkEnrichment.enriched(attachments, text: text, preview: preview)
        }
        if replacing, change.text?.isEmpty != false, change.attachments?.isEmpty != false {
            throw FeedsError.input("a comment needs text or attachments", field: "comment")
        }
        let comment = try await store.updateComment(id: id, change: change, userID: userID, by: principal, logger: logger)
        events.comment("feeds.comment.updated", comment, logger: logger)
        return comment
    }

    /// DeleteComment: the comment and its activity as the caller may read it now; the
    /// notification it made taken back.
    package func delete(_ id: String, hard: Bool, principal: Principal, logger: Logger) async throws
        -> (comment: Comment, activity: Activity)
    {
        let (comment, activity) = try await store.deleteComment(id: id, hard: hard, by: principal, logger: logger)
        events.comment("feeds.comment.deleted", comment, known: activity, logger: logger)
        try await notifier.unnotify(source: "comment:\(comment.id)", logger: logger)
        return (comment, try await readable(activity, principal: principal, logger: logger))
    }

    /// RestoreComment: a soft-deleted comment back, by its author or the server.
    package func restore(_ id: String, principal: Principal, logger: Logger) async throws -> (
        comment: Comment, activity: Activity
    ) {
        let (comment, activity) = try await store.restoreComment(id: id, by: principal, logger: logger)
        events.comment("feeds.comment.restored", comment, known: activity, logger: logger)
        return (comment, try await readable(activity, principal: principal, logger: logger))
    }

    /// The users `comments` mention, read in one query a page.
    package func mentionedUsers(_ comments: [Comment], logger: Logger) async throws -> [String: User] {
        let ids = Array(Set(comments.flatMap(\.mentionedUserIDs))).sorted()
        var users: [String: User] = [:]
        for start in stride(from: 0, to: ids.count, by: UserQuery.maxLimit) {
            var query = UserQuery(limit: UserQuery.maxLimit)
            query.ids = Array(ids[start..<min(start + UserQuery.maxLimit, ids.count)])
            for user in try await store.queryUsers(query, logger: logger) { users[user.id] = user }
        }
        return users
    }

    /// A comment's new attachments, linked as the comment's (those it holds already stay its own).
    private func link(_ given: [JSONObject], toComment id: String, principal: Principal, logger: Logger) async throws
        -> [StoredAttachment]
    {
        try Self.checkCount(given.count)
        let store = store
        return try await uploads.pipeline.linker.link(
            given, principal: principal,
            held: {
                Set(
                    try await store.comment(id: id, by: .server, ownFieldsOf: nil, logger: logger)?.attachments.compactMap(
                        \.objectKey) ?? [])
            },
            field: "attachments", logger: logger)
    }

    private static func checkCount(_ count: Int) throws {
        guard count <= CommentDraft.maxAttachments else {
            throw FeedsError.input("a comment takes at most \(CommentDraft.maxAttachments) attachments", field: "attachments")
        }
    }

    /// The comment's activity as the caller may read it now, which may be less than when they
    /// commented: redacted when they may not read it at all.
    private func readable(_ activity: Activity, principal: Principal, logger: Logger) async throws -> Activity {
        guard principal.userID != nil else { return activity }
        return try await store.activity(id: activity.id, viewer: principal, logger: logger) ?? activity.redacted
    }
}
