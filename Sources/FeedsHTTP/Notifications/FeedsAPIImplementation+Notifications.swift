import FeedsAPI
import FeedsCore

/// MarkActivity: the wire request checked, the marking the `Notifier`'s.
extension FeedsAPIImplementation {
    func markActivity(_ input: Operations.MarkActivity.Input) async throws -> Operations.MarkActivity.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let feed = try FeedID(group: input.path.feedGroupId, id: input.path.feedId, field: "feed_id")
        let user = try request.actingUser(body.userId ?? body.user?.id)
        guard feed.group == "notification" else {
            throw FeedsError.input("MarkActivity marks a notification feed's groups; \(feed) is not one", field: "feed_group_id")
        }
        guard feed.id == user else { throw FeedsError.notAllowed("\(feed) is \(feed.id)'s: \(user) may not mark it") }
        let mark = try NotificationMark(
            allRead: body.markAllRead, allSeen: body.markAllSeen, read: body.markRead, seen: body.markSeen,
            watched: body.markWatched)
        try await notifier.mark(feed, by: user, mark, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }
}
