import Logging

/// Where activities, feeds and users live. The Postgres store implements it; handlers are generic over it.
public protocol ActivityStore: FollowStore, ReactionStore, BookmarkStore, CommentStore, BlockStore, DeviceStore {
    /// Stores a new activity (creating its user and feeds on first use). A taken id is a conflict;
    /// a user `poster` may post only to feeds of theirs or new ones (not allowed otherwise).
    /// `recording`, when given, records the idempotent reply in the same transaction.
    func addActivity(
        _ draft: ActivityDraft, by poster: Principal, recording: IdempotentRecord<Activity>?, logger: Logger
    ) async throws -> Activity

    /// An activity by id, if it exists and is not deleted and `viewer` may see it.
    func activity(id: String, viewer: Principal, logger: Logger) async throws -> Activity?

    /// Rewrites an activity atomically: `change` sees the stored activity (locked) and returns its
    /// new content, or throws (not allowed, bad input) to leave it as it was. Feeds it is moved
    /// into must be ones `principal` may post into.
    func updateActivity(
        id: String, by principal: Principal, logger: Logger, _ change: @Sendable (Activity) throws -> ActivityDraft
    ) async throws -> Activity

    /// A reader's feedback on an activity they may read (the server names the reader); returns
    /// their feedback as it stands, and the activity (for the event's feeds).
    func feedback(
        _ change: ActivityFeedbackChange, on activityID: String, userID: String, by principal: Principal, logger: Logger
    ) async throws -> (feedback: ActivityFeedback, activity: Activity)

    /// UpsertActivities: each draft added as `addActivity` adds it, or written over the live
    /// activity of its id (its owner's or the server's; its owner stays), all in one transaction
    /// or none, a refusal naming its item (`activities[i]`). Returns each with whether it is new.
    func upsertActivities(_ drafts: [ActivityDraft], by principal: Principal, logger: Logger) async throws
        -> [(activity: Activity, created: Bool)]

    /// Rewrites the live activities of `ids` in one transaction (UpdateActivitiesPartialBatch):
    /// `change` sees each (locked, in id order) and returns its new content, nil to leave it
    /// (skipped), or throws to write none of them. Returns those written, in the order of `ids`.
    func updateActivities(
        ids: [String], by principal: Principal, logger: Logger, _ change: @Sendable (Activity) throws -> ActivityDraft?
    ) async throws -> [Activity]

    /// Brings back a soft-deleted activity (its owner's, or any for `mayRestore`'s yes): live again,
    /// in its feeds (and, through the fan-out, its followers' timelines), with its reactions,
    /// comments and files. 404 when there is no such activity; 400 when it is not deleted or has
    /// expired.
    func restoreActivity(id: String, logger: Logger, mayRestore: @Sendable (String) -> Bool) async throws

    /// Deletes the live activities among `ids` (soft or hard) and returns the ids deleted.
    /// `mayDelete` sees each owner first; one refusal deletes nothing.
    func deleteActivities(
        ids: [String], hard: Bool, logger: Logger, mayDelete: @Sendable (_ ownerID: String) -> Bool
    ) async throws -> [String]

    /// A page of activities, newest first.
    func queryActivities(_ query: ActivityQuery, logger: Logger) async throws -> ActivityPage

    /// A feed, created with `creatorID` as its owner when missing (without one, a missing feed is
    /// an input error; a user creates only their own, `FeedPermissions.mayCreate`), with
    /// `visibility` or its group's, and `details`; an existing feed stays as it is.
    func getOrCreateFeed(
        _ id: FeedID, creatorID: String?, by principal: Principal, visibility: FeedVisibility?, details: FeedDetails,
        logger: Logger
    ) async throws -> (feed: Feed, created: Bool)

    /// The feeds of a batch, each created when missing as `getOrCreateFeed` creates one, in one
    /// transaction; all of them, in the order given (an existing feed as it is).
    func createFeeds(_ feeds: [FeedCreation], by principal: Principal, logger: Logger) async throws -> [Feed]

    /// Feeds of `group` that `user` may read, neither owns nor follows from a feed of theirs, and
    /// whose owner is clear of their blocks: friends of friends first, then the most followed.
    func followSuggestions(group: String, for user: String, limit: Int, logger: Logger) async throws -> [FollowSuggestion]

    /// Sets the feed's name, description and custom data (those given), if `userID` owns it (nil:
    /// a server call); returns it as it is now.
    func updateFeed(_ id: FeedID, _ details: FeedDetails, by userID: String?, logger: Logger) async throws -> Feed

    /// DeleteFeed, DeleteFeedsBatch (`FeedDeletion`): all the feeds exist and `principal` owns each
    /// (or is the server), or nothing changes. Records the work as a completed task.
    func deleteFeeds(_ deletion: FeedDeletion, by principal: Principal, logger: Logger) async throws -> DeletedFeeds

    /// ChangeFeedVisibility: the feed's new level, by its owner or the server, with the follows
    /// and members the level no longer allows removed and waiting requests answered.
    func changeVisibility(of id: FeedID, _ change: VisibilityChange, by principal: Principal, logger: Logger)
        async throws -> ChangedVisibility

    /// A task recorded by a call that answered with its id (GetTask), or nil.
    func task(id: String, logger: Logger) async throws -> BackgroundTask?

    /// A page of a feed read through a view: the activities its selectors pick that the viewer
    /// may read, ranked by its score (or newest first).
    func viewPage(_ query: ViewPageQuery, logger: Logger) async throws -> ActivityPage

    /// A page of feeds in the query's order.
    func queryFeeds(_ query: FeedQuery, logger: Logger) async throws -> FeedPage

    /// The feeds among `ids` that exist and `user` may read (nil: the server, all), in no order.
    func feeds(_ ids: [FeedID], readableBy user: String?, logger: Logger) async throws -> [Feed]

    /// What each of `feeds` is to `user` (`FeedOwnData`), by feed; `followings` reads
    /// `own_followings` too.
    func ownData(of feeds: [Feed], for user: String, followings: Bool, logger: Logger) async throws -> [FeedID: FeedOwnData]

    /// The users a query selects, in its order.
    func queryUsers(_ query: UserQuery, logger: Logger) async throws -> [User]

    /// Creates or replaces users.
    func upsertUsers(_ users: [UserInput], logger: Logger) async throws -> [User]

    /// Creates `user` if its id is free; nil when it is taken (never changing the user who has it).
    func createUser(_ user: UserInput, logger: Logger) async throws -> User?

    /// Applies each patch to its user, all or none, each user's row locked meanwhile (so that
    /// concurrent patches of different fields all stay). A user that does not exist is not found.
    func updateUsersPartial(_ patches: [UserPatch], logger: Logger) async throws -> [User]

    /// DeactivateUser(s) (`deactivated`) and ReactivateUser(s): each of `ids` must name a user, or
    /// nothing changes; every node hears of it (`DeactivatedUsers`). The batch calls record the
    /// work as a completed task (`recordTask`).
    func setDeactivated(_ ids: [String], _ deactivated: Bool, recordTask: Bool, logger: Logger) async throws
        -> (users: [UserActivation], task: BackgroundTask?)

    /// DeleteUsers and DeleteFeedUserData: each user must exist, or nothing happens; accounts
    /// that go are marked deleted at once (their tokens refused on every node), and the work is
    /// queued as a task of `kind` (`UserErasure`).
    func queueErasure(_ erasure: UserErasure, kind: String, logger: Logger) async throws -> BackgroundTask

    /// RestoreUsers: each must be a soft-deleted user whose deletion task is done; their accounts
    /// are back at once, and what was soft-deleted with them comes back by a queued task.
    func restoreUsers(_ ids: [String], logger: Logger) async throws -> BackgroundTask

    /// ExportFeedUserData and ExportUsers: each user must exist; the export is queued as a task
    /// of `kind`, whose `result.url` is the file once done.
    func queueExport(_ ids: [String], kind: String, logger: Logger) async throws -> BackgroundTask
}
