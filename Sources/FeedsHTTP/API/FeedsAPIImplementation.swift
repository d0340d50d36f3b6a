import FeedsAPI
import FeedsAuth
import FeedsCore
import FeedsRealtime
import FeedsServices
import FeedsUploads
import FeedsWire
import Logging

/// The generated `APIProtocol`, implemented over an `ActivityStore`. Errors are thrown as
/// `FeedsError`; `APIErrorMiddleware` renders them.
struct FeedsAPIImplementation<Store: ActivityStore>: APIProtocol {
    let store: Store
    let uploads: UploadPipeline
    let idempotency: Idempotency
    let settingsStore: any AppSettingsStore
    let realtime: Realtime
    let rateLimiter: RateLimiter
    let notifications: any NotificationStore
    /// Notification feeds' events, read after their writes, shared by this node's requests.
    let notificationChanges: NotificationChanges
    let feedGroups: FeedGroupService
    let watches: any WatchStore
    let memberStore: any MemberStore
    let pinStore: any PinStore
    let pollStore: any PollStore
    let feedViews: any FeedViewStore
    /// GetOG's previews, cached.
    let linkPreviews: LinkPreviews
    /// Signs guests' tokens (CreateGuest); holds this node's deactivated users, changed at once
    /// by DeactivateUser.
    let authenticator: Authenticator
    /// How long a request's work may take (`FEEDS_REQUEST_TIMEOUT`); a multipart request's starts
    /// once its body is in (`afterBody`).
    var deadline: Duration = .seconds(10)
    /// Where UpdateApp may point webhooks.
    var webhookAddresses = WebhookAddresses()
    /// Tells this node's task worker that a task was queued.
    var wakeTasks: @Sendable () -> Void = {}

    /// A multipart request's work once its body is in: the request's deadline plus the store's
    /// budget for its files, so a hung database or store answers it (503 or 504), never a wait
    /// without end. The body itself goes by the connection's timeouts and the size limits.
    func afterBody<T: Sendable>(
        _ operation: String, files: [ReceivedFile], _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withDeadline(deadline + uploads.storeBudget(bytes: files.reduce(0) { $0 + $1.size }), operation, work)
    }

    /// Where every write's events go out (`Events`), its notifications (`Notifier`), and the
    /// stories' watching (`Stories`).
    var events: Events<Store> { Events(realtime: realtime, urls: uploads.urls, store: store) }
    var stories: Stories<Store> { Stories(watches: watches, store: store, events: events) }
    var pins: Pins<Store> { Pins(pins: pinStore, store: store, events: events) }
    var polls: Polls<Store> { Polls(polls: pollStore, store: store, events: events) }
    var notifier: Notifier<Store> {
        Notifier(
            notifications: notifications, changes: notificationChanges, store: store, events: events,
            pushes: { [settings = uploads.settings] in
                settings.current.webhooks.targets.contains { $0.wants(Events<Store>.pushType) }
            }
        ) { [feedGroups] in
            feedGroups.current.notificationFormat
        }
    }
    /// The workflows of each write, on domain types.
    var fileUploads: Uploads { Uploads(pipeline: uploads) }
    var activities: Activities<Store> {
        Activities(
            store: store, uploads: fileUploads, feedGroups: feedGroups, polls: polls, events: events, notifier: notifier,
            links: LinkEnrichment(previews: linkPreviews))
    }
    var comments: Comments<Store> { Comments(
            store: store, uploads: fileUploads, events: events, notifier: notifier,
            links: LinkEnrichment(previews: linkPreviews)) }
    var reactions: Reactions<Store> { Reactions(store: store, events: events, notifier: notifier) }
    var follows: Follows<Store> {
        Follows(store: store, feedGroups: feedGroups, realtime: realtime, events: events, notifier: notifier)
    }
    var bookmarks: Bookmarks<Store> { Bookmarks(store: store, events: events) }
    var members: Members<Store> { Members(members: memberStore, store: store, events: events) }
    var feedChanges: FeedChanges<Store> { FeedChanges(store: store, events: events, notifier: notifier) }

    /// An activity as the wire shows it.
    func wire(_ activity: Activity) throws -> Components.Schemas.ActivityResponse {
        try Wire.activity(activity, urls: uploads.urls)
    }

    /// The request of a server-side-only call; a user token is refused, with `why`.
    func serverRequest(_ why: String) throws -> AuthenticatedRequest {
        let request = try request
        guard request.principal == .server else { throw FeedsError.notAllowed("\(why); a user token may not") }
        return request
    }

    /// The scope the middlewares set for this request, with its authenticated principal.
    var request: AuthenticatedRequest {
        get throws {
            guard let scope = RequestScope.current, let principal = scope.principal else {
                throw FeedsError(.internal, "handler ran outside an authenticated request scope")
            }
            return AuthenticatedRequest(principal: principal, logger: scope.logger, scope: scope)
        }
    }
}

/// The parts of the request scope a handler uses.
struct AuthenticatedRequest {
    let principal: Principal
    let logger: Logger
    let scope: RequestScope

    var duration: String { scope.duration }

    /// The user the request acts for; the server must name one.
    func actingUser(_ requested: String?) throws -> String {
        guard let user = try principal.actingUser(requested: requested) else {
            throw FeedsError.input("user_id is required for server-side requests", field: "user_id")
        }
        return user
    }

    /// Whose `own_*` fields a read shows: a user token's user; for the server, the user it names,
    /// or the server itself.
    func viewer(named userID: String?) throws -> Principal {
        try principal.actingUser(requested: userID).map(Principal.user) ?? .server
    }
}
