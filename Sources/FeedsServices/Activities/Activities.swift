import FeedsCore
import FeedsUploads
import Logging
import Synchronization

/// Activities' workflow: attachments linked and files stored before the write, the files given
/// back if the write fails, the idempotent reply recorded in the write's transaction, and the
/// events and mention notifications once it committed.
package struct Activities<Store: ActivityStore>: Sendable {
    let store: Store
    let uploads: Uploads
    let feedGroups: FeedGroupService
    let polls: Polls<Store>
    let events: Events<Store>
    let notifier: Notifier<Store>
    let links: LinkEnrichment

    package init(
        store: Store, uploads: Uploads, feedGroups: FeedGroupService, polls: Polls<Store>, events: Events<Store>,
        notifier: Notifier<Store>, links: LinkEnrichment
    ) {
        (self.store, self.uploads, self.feedGroups, self.polls) = (store, uploads, feedGroups, polls)
        (self.events, self.notifier, self.links) = (events, notifier, links)
    }

    /// AddActivity: `draft`, checked, with `given` attachments (URLs and payloads) still to link
    /// and `files` still to store, its poll (`pollID`) to carry; `mentions` are told when the
    /// request asked for notifications; its text's first link is previewed when `enrich`
    /// (`LinkEnrichment`). The reply `recording` makes is written with the activity. Followers who
    /// asked for pushes are told (`Notifier.pushToFollowers`) unless `push` is off (`skip_push`).
    package func add(
        _ draft: ActivityDraft, given: [JSONObject], files: [AttachedFile], pollID: String?, mentions: [String]?,
        enrich: Bool = false, push: Bool = true, settings: AppSettings, recording: IdempotentRecord<Activity>?,
        principal: Principal,
        logger: Logger
    ) async throws -> Activity {
        var draft = draft
        guard given.count <= ActivityDraft.maxAttachments else {
            throw FeedsError.input(
                "an activity may hold at most \(ActivityDraft.maxAttachments) attachments", field: "attachments")
        }
        draft.attachments = try await uploads.pipeline.linker.link(given, principal: principal, logger: logger)
        if enrich {
            let preview = await links.preview(for: draft.text, logger: logger)
            draft.attachments = LinkEnrichment.enriched(draft.attachments, text: draft.text, preview: preview)
        }
        // What the reply carries beside the row is read before the write, so that the reply
        // recorded in the write's transaction shows it too: the activity it shares, the users it
        // names, its poll.
        let parent = try await checkParent(of: draft, logger: logger)
        let mentioned = try await mentionedUsers(draft.mentionedUserIDs, logger: logger)
        var poll: Poll?
        if let pollID {
            draft.pollID = try await polls.attachable(pollID, to: draft.userID, principal: principal, logger: logger)
            poll = try await polls.poll(pollID, viewer: principal, reader: draft.userID, logger: logger)
        }
        let carry: @Sendable (Activity) -> Activity = { [poll] activity in
            var shown = activity
            (shown.poll, shown.parent, shown.mentionedUsers) = (poll, parent, mentioned)
            return shown
        }
        let recording = recording.map { record in
            IdempotentRecord(principal: record.principal, key: record.key) { try record.reply(carry($0)) }
        }
        try await feedGroups.require(draft.feeds, logger: logger)
        let stored = try await uploads.attach(files, owner: draft.userID, settings: settings, logger: logger)
        draft.attachments += stored.map(\.attachment)
        var activity: Activity
        do {
            activity = try await store.addActivity(draft, by: principal, recording: recording, logger: logger)
        } catch {
            await uploads.detach(stored, logger: logger)
            throw error
        }
        activity = carry(activity)
        events.activity("feeds.activity.added", activity, actor: activity.user)
        if push { notifier.pushToFollowersLater(activity, logger: logger) }
        if let mentions {
            // A mention copies no custom data: AddActivity's copy_custom_to_notification is
            // deprecated in Stream's spec (notification_context carries the target instead).
            let drafts = mentions.map { NotificationDraft.mention(of: $0, in: activity, copyCustom: false) }
            try await notifier.notifyReaders(drafts, of: activity.id, push: push, logger: logger)
        }
        return activity
    }

    /// UpdateActivity and UpdateActivityPartial: `given` attachments (nil: unchanged) linked
    /// under `attachmentsField`, then `change` makes the new draft from the activity as it is,
    /// locked, by its owner or the server; its feeds' groups must exist. With `enrich`, the
    /// update sets the text `enrich` holds, and its link previews follow it (`LinkEnrichment`).
    package func update(
        _ id: String, given: [JSONObject]?, poll: String? = nil, parent: String? = nil, attachmentsField: String,
        feedsField: String, parentField: String, notifyMentions: Bool = false, enrich: String?? = nil, principal: Principal,
        logger: Logger,
        change: @escaping @Sendable (_ current: Activity, _ linked: [StoredAttachment]?) throws -> ActivityDraft
    ) async throws -> Activity {
        // A poll the change puts on: one the activity's owner made (any, for the server).
        if let poll, !poll.isEmpty {
            _ = try await polls.attachable(poll, to: principal.userID ?? "", principal: principal, logger: logger)
        }
        var linked: [StoredAttachment]?
        if let given { linked = try await link(given, into: id, principal: principal, field: attachmentsField, logger: logger) }
        if let parent { try await checkParent(parent, of: id, poster: principal.userID, field: parentField, logger: logger) }
        let (attachments, groups) = (linked, feedGroups.current)
        var preview: StoredAttachment?
        if let text = enrich { preview = await links.preview(for: text, logger: logger) }
        let (enriching, shown) = (enrich != nil, preview)
        let mentionedBefore = Mutex<[String]>([])
        let activity = try await store.updateActivity(id: id, by: principal, logger: logger) { current in
            guard principal.mayModify(ownedBy: current.user.id) else {
                throw FeedsError.notAllowed("only the owner or the server may update activity \(current.id)")
            }
            mentionedBefore.withLock { $0 = current.mentionedUserIDs }
            var draft = try change(current, attachments)
            if enriching { draft.attachments = LinkEnrichment.enriched(draft.attachments, text: draft.text, preview: shown) }
            try groups.requireAll(draft.feeds, field: feedsField)
            return draft
        }.shown(to: principal, store: store, logger: logger)
        events.activity("feeds.activity.updated", activity, actor: activity.user)
        if notifyMentions {
            // `handle_mention_notifications`: those the edit names anew are told, as a create tells.
            let before = Set(mentionedBefore.withLock { $0 })
            let drafts = activity.mentionedUserIDs.filter { !before.contains($0) }.map {
                NotificationDraft.mention(of: $0, in: activity, copyCustom: false)
            }
            try await notifier.notifyReaders(drafts, of: activity.id, logger: logger)
        }
        return activity
    }

    /// ActivityFeedback: the reader's feedback stored, then told to their own sockets.
    package func feedback(
        _ change: ActivityFeedbackChange, on activityID: String, userID: String, principal: Principal, logger: Logger
    ) async throws -> ActivityFeedback {
        let (feedback, activity) = try await store.feedback(
            change, on: activityID, userID: userID, by: principal, logger: logger)
        events.feedback(feedback, action: change.action, activity: activity)
        return feedback
    }

    /// One activity of UpsertActivities: checked, with its attachments (by URL) still to link and
    /// the users it mentions when the request asked for their notifications.
    package struct UpsertItem: Sendable {
        package var draft: ActivityDraft
        package var given: [JSONObject]
        package var mentions: [String]?
        /// Whether a new one is pushed to followers (`skip_push` off).
        package var push: Bool

        package init(draft: ActivityDraft, given: [JSONObject], mentions: [String]?, push: Bool = true) {
            (self.draft, self.given, self.mentions, self.push) = (draft, given, mentions, push)
        }
    }

    /// UpsertActivities: each item's attachments linked (an existing activity's own may come back)
    /// and its feeds' groups checked, then all written in one transaction or none; then each one's
    /// event, and a new one's mention notifications.
    package func upsert(_ items: [UpsertItem], principal: Principal, logger: Logger) async throws -> [Activity] {
        var drafts: [ActivityDraft] = []
        for (index, item) in items.enumerated() {
            do {
                guard item.given.count <= ActivityDraft.maxAttachments else {
                    throw FeedsError.input(
                        "an activity may hold at most \(ActivityDraft.maxAttachments) attachments", field: "attachments")
                }
                var draft = item.draft
                draft.attachments = try await link(
                    item.given, into: draft.id, principal: principal, field: "attachments", logger: logger)
                _ = try await checkParent(of: draft, logger: logger)
                try await feedGroups.require(draft.feeds, logger: logger)
                drafts.append(draft)
            } catch let error as FeedsError {
                throw error.inBatch("activities", index)
            }
        }
        var written = try await store.upsertActivities(drafts, by: principal, logger: logger)
        let shown = try await written.map(\.activity).shown(to: principal, store: store, logger: logger)
        for index in written.indices { written[index].activity = shown[index] }
        let mentions = Dictionary(items.map { ($0.draft.id, $0.mentions) }, uniquingKeysWith: { first, _ in first })
        let pushed = Set(items.filter(\.push).map(\.draft.id))
        for (activity, created) in written {
            events.activity(created ? "feeds.activity.added" : "feeds.activity.updated", activity, actor: activity.user)
            if created, pushed.contains(activity.id) { notifier.pushToFollowersLater(activity, logger: logger) }
            if created, let users = mentions[activity.id] ?? nil {
                let drafts = users.map { NotificationDraft.mention(of: $0, in: activity, copyCustom: false) }
                try await notifier.notifyReaders(drafts, of: activity.id, push: pushed.contains(activity.id), logger: logger)
            }
        }
        return written.map(\.activity)
    }

    /// UpdateActivitiesPartialBatch: each of `patches` (by activity id) applied to its activity,
    /// all in one transaction. An activity that is missing, not the caller's, or left as it was
    /// is skipped; a patch that is wrong fails the whole batch, its item named (`changes[i]`).
    package func update(batch patches: [(id: String, patch: ActivityPatch)], principal: Principal, logger: Logger)
        async throws -> [Activity]
    {
        var changes: [String: (index: Int, patch: ActivityPatch, linked: [StoredAttachment]?)] = [:]
        for (index, item) in patches.enumerated() {
            do {
                if let poll = try item.patch.requestedPoll(), !poll.isEmpty {
                    _ = try await polls.attachable(poll, to: principal.userID ?? "", principal: principal, logger: logger)
                }
                var linked: [StoredAttachment]?
                if let given = try item.patch.requestedAttachments() {
                    linked = try await link(given, into: item.id, principal: principal, field: "set.attachments", logger: logger)
                }
                if let parent = try item.patch.requestedParent() {
                    try await checkParent(parent, of: item.id, poster: principal.userID, field: "set.parent_id", logger: logger)
                }
                changes[item.id] = (index, item.patch, linked)
            } catch let error as FeedsError {
                throw error.inBatch("changes", index)
            }
        }
        let (groups, planned) = (feedGroups.current, changes)
        let written = try await store.updateActivities(ids: patches.map(\.id), by: principal, logger: logger) { current in
            guard principal.mayModify(ownedBy: current.user.id), let change = planned[current.id] else { return nil }
            do {
                let draft = try change.patch.apply(to: current, linked: change.linked)
                try groups.requireAll(draft.feeds, field: "set.feeds")
                return draft.changes(current) ? draft : nil
            } catch let error as FeedsError {
                throw error.inBatch("changes", change.index)
            }
        }
        for activity in written { events.activity("feeds.activity.updated", activity, actor: activity.user) }
        return try await written.shown(to: principal, store: store, logger: logger)
    }

    /// The users of `ids` who exist, in that order.
    private func mentionedUsers(_ ids: [String], logger: Logger) async throws -> [User] {
        guard !ids.isEmpty else { return [] }
        var query = UserQuery(limit: ids.count)
        query.ids = ids
        let byID = Dictionary(
            try await store.queryUsers(query, logger: logger).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    /// The activity a draft shares, if it shares one, checked as `checkParent(_:of:poster:field:logger:)` does.
    private func checkParent(of draft: ActivityDraft, logger: Logger) async throws -> Activity? {
        guard let parent = draft.parentID else { return nil }
        return try await checkParent(parent, of: draft.id, poster: draft.userID, field: "parent_id", logger: logger)
    }

    /// A share's `parent`: another activity, live, that its `poster` may read whole (the server,
    /// when nil, reads any), as they read it. A share of one that is deleted later stays, without it.
    @discardableResult
    private func checkParent(_ parent: String, of id: String, poster: String?, field: String, logger: Logger) async throws
        -> Activity
    {
        guard parent != id else { throw FeedsError.input("an activity cannot share itself", field: field) }
        let viewer = poster.map(Principal.user) ?? .server
        var read = ActivityQuery.one(parent, viewer: viewer, ownFieldsOf: viewer.userID)
        read.embedsParents = false  // the reply carries one level of shares
        let shared = try await store.queryActivities(read, logger: logger).activities.first
        guard let shared, !shared.preview else {
            throw FeedsError.input("\(field) names no activity \(poster ?? "the server") may read: \(parent)", field: field)
        }
        return shared
    }

    /// Attachments an update sends, linked as a create links them; the objects the activity holds
    /// already may be sent back by its editor, as a GET returned them (read only when an object
    /// is not the caller's). The store's transaction refuses any object claimed for deletion meanwhile.
    private func link(_ given: [JSONObject], into id: String, principal: Principal, field: String, logger: Logger)
        async throws -> [StoredAttachment]
    {
        let store = store
        return try await uploads.pipeline.linker.link(
            given, principal: principal,
            held: {
                Set(try await store.activity(id: id, viewer: .server, logger: logger)?.attachments.compactMap(\.objectKey) ?? [])
            },
            field: field, logger: logger)
    }

    /// DeleteActivity and DeleteActivities: the live ones among `ids`, all the caller's (or the
    /// server's); their events, and the notifications they made taken back. Returns the ids deleted.
    package func delete(_ ids: [String], hard: Bool, principal: Principal, logger: Logger) async throws -> [String] {
        let before = try await asTheyAre(ids, logger: logger)
        let deleted = try await store.deleteActivities(
            ids: ids, hard: hard, logger: logger, mayDelete: { principal.mayModify(ownedBy: $0) })
        for id in deleted {
            if let activity = before[id] { events.activity("feeds.activity.deleted", activity, actor: activity.user) }
        }
        try await notifier.unnotify(activities: deleted, logger: logger)
        return deleted
    }

    /// RestoreActivity: a soft-deleted activity back, by its owner or the server, as `reader` sees it.
    package func restore(_ id: String, reader: String?, principal: Principal, logger: Logger) async throws -> Activity {
        try await store.restoreActivity(id: id, logger: logger, mayRestore: { principal.mayModify(ownedBy: $0) })
        guard
            let activity = try await store.queryActivities(.one(id, viewer: principal, ownFieldsOf: reader), logger: logger)
                .activities.first
        else { throw FeedsError.notFound("activity \(id) does not exist") }
        events.activity("feeds.activity.restored", activity, actor: activity.user)
        return activity
    }

    /// The activities a delete names, as they were, for its events (a hard delete leaves nothing
    /// to read after): one query, as QueryActivities reads by id.
    private func asTheyAre(_ ids: [String], logger: Logger) async throws -> [String: Activity] {
        var query = ActivityQuery(viewer: .server, limit: ActivityQuery.maxLimit)
        query.ids = Array(Set(ids))
        let found = try await store.queryActivities(query, logger: logger).activities
        return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension Activity {
    /// The activity as a write's reply shows it to `principal`: the store reads written activities
    /// as the server, and the activity a share shares is then read again as the writer reads it.
    func shown<Store: ActivityStore>(to principal: Principal, store: Store, logger: Logger) async throws -> Activity {
        try await [self].shown(to: principal, store: store, logger: logger)[0]
    }
}

extension Array where Element == Activity {
    func shown<Store: ActivityStore>(to principal: Principal, store: Store, logger: Logger) async throws -> [Activity] {
        let parents = Set(compactMap(\.parentID))
        guard principal != .server, !parents.isEmpty else { return self }
        var read = ActivityQuery(viewer: principal, limit: parents.count)
        (read.ids, read.embedsParents) = ([String](parents), false)
        let readable = Dictionary(
            try await store.queryActivities(read, logger: logger).activities.map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        return map { activity in
            var shown = activity
            shown.parent = activity.parentID.flatMap { readable[$0] }
            return shown
        }
    }
}
