import FeedsCore
import Logging

/// Pins' workflow: the feed's owner (or the server) pins and unpins its activities; a page of pins
/// carries the activities its reader may read; events go to the feed's watchers.
package struct Pins<Store: ActivityStore>: Sendable {
    let pins: any PinStore
    let store: Store
    let events: Events<Store>

    package init(pins: any PinStore, store: Store, events: Events<Store>) {
        (self.pins, self.store, self.events) = (pins, store, events)
    }

    /// Pins `activityID` to `feed` for `user`; `feeds.activity.pinned` when it is new.
    package func pin(_ activityID: String, to feed: FeedID, by user: String, principal: Principal, logger: Logger) async throws
        -> ActivityPin
    {
        let (record, created) = try await pins.pin(activityID, to: feed, by: user, server: principal == .server, logger: logger)
        let pin = try await resolved(record, viewer: principal, logger: logger)
        if created { events.pin("feeds.activity.pinned", pin) }
        return pin
    }

    /// Unpins it; `feeds.activity.unpinned`.
    package func unpin(_ activityID: String, from feed: FeedID, principal: Principal, logger: Logger) async throws -> ActivityPin {
        let record = try await pins.unpin(activityID, from: feed, by: principal.userID, logger: logger)
        let pin = try await resolved(record, viewer: principal, logger: logger)
        events.pin("feeds.activity.unpinned", pin)
        return pin
    }

    /// A page of the feed's pins, newest first, with the activities `viewer` may read (the
    /// caller checked they may read the feed).
    package func page(of feed: FeedID, viewer: Principal, ownFieldsOf reader: String?, limit: Int, next: String?, logger: Logger)
        async throws -> PinPage
    {
        let (records, more) = try await pins.pins(
            of: feed, limit: limit, after: try next.map { try PinPage.cursor($0) }, logger: logger)
        guard !records.isEmpty else { return PinPage(pins: [], next: nil) }
        var query = ActivityQuery(viewer: viewer, limit: records.count)
        query.ids = records.map(\.activityID)
        query.ownFieldsOf = reader
        query.leavesOutBlocked = true
        let activities = try await store.queryActivities(query, logger: logger).activities
        let byID = Dictionary(activities.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let shown = records.compactMap { record in
            byID[record.activityID].map {
                ActivityPin(feed: feed, activity: $0, user: record.user, createdAt: record.createdAt, updatedAt: record.updatedAt)
            }
        }
        return PinPage(pins: shown, next: more ? records.last.map(PinPage.cursor(after:)) : nil)
    }

    private func resolved(_ record: PinRecord, viewer: Principal, logger: Logger) async throws -> ActivityPin {
        guard let activity = try await store.activity(id: record.activityID, viewer: .server, logger: logger) else {
            throw FeedsError.notFound("activity \(record.activityID) does not exist")
        }
        return ActivityPin(
            feed: record.feed, activity: activity, user: record.user, createdAt: record.createdAt, updatedAt: record.updatedAt)
    }
}
