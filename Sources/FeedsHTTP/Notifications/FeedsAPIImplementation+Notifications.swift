import FeedsAPI
import FeedsCore

/// MarkActivity: the wire request checked; a notification feed's marks are the `Notifier`'s, a
/// story feed's watching the `Stories`'.
extension FeedsAPIImplementation {
    func markActivity(_ input: Operations.MarkActivity.Input) async throws -> Operations.MarkActivity.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let feed = try FeedID(group: input.path.feedGroupId, id: input.path.feedId, field: "feed_id")
        let user = try request.actingUser(body.userId ?? body.user?.id)
        let mark = try NotificationMark(
            allRead: body.markAllRead, allSeen: body.markAllSeen, read: body.markRead, seen: body.markSeen,
            watched: body.markWatched)
        try await feedGroups.require([feed], field: "feed_group_id", logger: request.logger)
        guard let group = feedGroups.current.live(feed.group) else { throw FeedsError.notFound("\(feed.group) does not exist") }
        if feed.group == "notification" {
            guard feed.id == user else { throw FeedsError.notAllowed("\(feed) is \(feed.id)'s: \(user) may not mark it") }
            try Self.checkTracked(mark, group.config.notification)
            try await notifier.mark(feed, by: user, mark, logger: request.logger)
        } else {
            guard group.config.stories?.trackWatched == true else {
                throw FeedsError.input(
                    "MarkActivity marks a notification feed, or the stories of a group that tracks watching; \(feed.group) is neither",
                    field: "feed_group_id")
            }
            guard !mark.allRead, !mark.allSeen, mark.read.isEmpty, mark.seen.isEmpty else {
                throw FeedsError.input("a story feed's activities are marked watched (mark_watched); read and seen are a notification feed's")
            }
            // The reader marks for themselves, on a feed they may read.
            guard try await !store.feeds([feed], readableBy: user, logger: request.logger).isEmpty else {
                throw FeedsError.notAllowed("\(user) may not read \(feed)")
            }
            try await stories.markWatched(mark, on: feed, group: group, by: user, logger: request.logger)
        }
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    /// Refuses marks the notification group does not track (`notification.track_read`/`track_seen`).
    static func checkTracked(_ mark: NotificationMark, _ settings: FeedGroupConfig.NotificationSettings?) throws {
        guard mark.watched.isEmpty else {
            throw FeedsError.input("mark_watched marks stories; a notification feed has none", field: "mark_watched")
        }
        if mark.allRead || !mark.read.isEmpty, settings?.trackRead == false {
            throw FeedsError.input("the notification group does not track read (notification.track_read)", field: "mark_read")
        }
        if mark.allSeen || !mark.seen.isEmpty, settings?.trackSeen == false {
            throw FeedsError.input("the notification group does not track seen (notification.track_seen)", field: "mark_seen")
        }
    }
}
