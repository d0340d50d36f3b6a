import FeedsAPI
import FeedsCore
import FeedsRealtime
import FeedsUploads
import FeedsWire
import Foundation
import Logging

/// The events each write sends once it committed, in Stream's shapes: `{"type", "created_at",
/// "custom", "fid" (added per watcher), the objects, "user"}`. An activity's events (and those of
/// its reactions, comments and bookmarks) go to the watchers of its feeds and, when it is public,
/// of the timelines that follow them; only to its owner when it is not public, and a bookmark's
/// only to its user. Follows go to both feeds' watchers, a feed's update to its own.
/// Every write's events are sent from here, after the write committed, from what it wrote.
package struct Events<Store: ActivityStore>: Sendable {
    let realtime: Realtime
    let urls: AttachmentURLs
    let store: Store

    package init(realtime: Realtime, urls: AttachmentURLs, store: Store) {
        (self.realtime, self.urls, self.store) = (realtime, urls, store)
    }

    package func activity(_ type: String, _ activity: Activity, actor: User? = nil, extra: [(String, (any Encodable)?)] = []) {
        var json = JSONWriter(capacity: 2048)
        var users: [String: [UInt8]] = [:]
        // Without the activity a share shares: who may read the share need not read that one
        // (a read carries it to those who may).
        var activity = activity
        activity.parent = nil
        json.object { json in
            Self.head(&json, type)
            json.key("activity")
            json.activity(activity, urls: urls, users: &users)
            Self.fields(&json, extra + [("user", actor.flatMap { try? Wire.user($0) } as (any Encodable)?)])
        }
        let actors = [activity.user.id] + [actor?.id].compactMap { $0 }.filter { $0 != activity.user.id }
        realtime.publish(
            FeedEvent(
                fids: activity.feeds, onlyFor: Self.audience(activity), toFollowers: Self.inTimelines(activity),
                payload: json.bytes, actors: actors))
    }

    /// A comment's event: its activity (unless `known`) is read for the feeds and the audience, off
    /// the request's path (the reply does not wait for it).
    package func comment(
        _ type: String, _ comment: Comment, reaction: Reaction? = nil, known: Activity? = nil, logger: Logger
    ) {
        let events = self
        Task {
            do {
                let read =
                    if let known { known } else {
                        try await store.activity(id: comment.activityID, viewer: .server, logger: logger)
                    }
                guard let activity = read else { return }
                let wired = try Wire.comment(comment, urls: urls, mentioned: [:])
                events.activity(
                    type, activity, actor: comment.user,
                    extra: [("comment", wired), ("reaction", reaction.flatMap { try? Wire.reaction($0) })])
            } catch {
                logger.warning("comment event not sent", metadata: ["comment": "\(comment.id)", "error": "\(error)"])
            }
        }
    }

    package func follow(_ type: String, _ follow: Follow) {
        guard let wired = try? Wire.follow(follow, viewer: .server) else { return }
        var json = JSONWriter(capacity: 1024)
        json.object { json in
            Self.head(&json, type)
            Self.fields(&json, [("follow", wired)])
        }
        realtime.publish(
            FeedEvent(fids: [follow.source.id.description, follow.target.id.description], onlyFor: nil, payload: json.bytes))
    }

    /// A bookmark is its user's alone: of its activity's watchers, only their sockets get it (the
    /// SDKs keep `own_bookmarks` in step across the user's devices with it).
    package func bookmark(_ type: String, _ bookmark: Bookmark, activity: Activity) {
        var json = JSONWriter(capacity: 2048)
        var users: [String: [UInt8]] = [:]
        let comment = bookmark.comment.flatMap { try? Self.encoded(Wire.comment($0, urls: urls, mentioned: [:])) }
        json.object { json in
            Self.head(&json, type)
            json.key("bookmark")
            json.bookmark(bookmark, comment: comment, users: &users) { [urls] json, users in
                json.activity(activity, urls: urls, users: &users)
            }
            json.key("user")
            json.user(bookmark.user, written: &users)
        }
        realtime.publish(
            FeedEvent(
                fids: activity.feeds, onlyFor: bookmark.user.id, toFollowers: Self.inTimelines(activity), payload: json.bytes))
    }

    /// A reader's feedback is theirs alone, as a bookmark is: `feeds.activity.feedback` to their sockets.
    package func feedback(_ feedback: ActivityFeedback, action: (name: String, value: String), activity: Activity) {
        var json = JSONWriter(capacity: 1024)
        var users: [String: [UInt8]] = [:]
        json.object { json in
            Self.head(&json, "feeds.activity.feedback")
            json.key("activity_feedback")
            json.object { json in
                json.field("action", action.name)
                json.field("activity_id", feedback.activityID)
                json.field("created_at", feedback.createdAt)
                json.field("updated_at", feedback.updatedAt)
                json.key("user")
                json.user(feedback.user, written: &users)
                json.field("value", action.value)
            }
            json.key("user")
            json.user(feedback.user, written: &users)
        }
        realtime.publish(
            FeedEvent(
                fids: activity.feeds, onlyFor: feedback.user.id, toFollowers: Self.inTimelines(activity), payload: json.bytes))
    }

    package func feed(_ type: String, _ feed: Feed, actor: User? = nil) {
        guard let wired = try? Wire.feed(feed, viewer: .server) else { return }
        var json = JSONWriter(capacity: 1024)
        json.object { json in
            Self.head(&json, type)
            Self.fields(&json, [("feed", wired), ("user", actor.flatMap { try? Wire.user($0) })])
        }
        realtime.publish(FeedEvent(fids: [feed.id.description], onlyFor: nil, payload: json.bytes))
    }

    /// A member added or changed, to the feed's watchers (Stream's FeedMemberAddedEvent and
    /// FeedMemberUpdatedEvent).
    package func member(_ type: String, _ member: FeedMember, in feed: FeedID) {
        guard let wired = try? Wire.feedMember(member) else { return }
        var json = JSONWriter(capacity: 1024)
        json.object { json in
            Self.head(&json, type)
            Self.fields(&json, [("member", wired)])
        }
        realtime.publish(FeedEvent(fids: [feed.description], onlyFor: nil, payload: json.bytes))
    }

    /// A member removed, by id (FeedMemberRemovedEvent). With `endingTheirWatch`, their own
    /// watches of the feed end once it reached them: they may no longer read it.
    package func memberRemoved(_ userID: String, from feed: FeedID, endingTheirWatch: Bool) {
        var json = JSONWriter(capacity: 256)
        json.object { json in
            Self.head(&json, "feeds.feed_member.removed")
            json.field("member_id", userID)
        }
        realtime.publish(
            FeedEvent(
                fids: [feed.description], onlyFor: nil, payload: json.bytes, thenRevoke: endingTheirWatch ? [userID] : []))
    }

    /// A feed deleted: its watchers learn it, with no feed object (Stream's FeedDeletedEvent).
    package func feedDeleted(_ feed: Feed, actor: User?) {
        var json = JSONWriter(capacity: 512)
        json.object { json in
            Self.head(&json, "feeds.feed.deleted")
            Self.fields(&json, [("user", actor.flatMap { try? Wire.user($0) })])
        }
        realtime.publish(FeedEvent(fids: [feed.id.description], onlyFor: nil, payload: json.bytes))
    }

    /// Whether the activity is copied into its feeds' followers' timelines (only public ones are),
    /// so that their watchers get its events too.
    private static func inTimelines(_ activity: Activity) -> Bool {
        activity.visibility == .public
    }

    /// Who may see an activity's events besides the watchers of its feeds' who may read it.
    static func audience(_ activity: Activity) -> String? {
        activity.visibility == .public ? nil : activity.user.id
    }

    /// What every event starts with: its type, time and (empty) custom data. `received_at`, which
    /// Stream's Swift SDK decodes, is when the server sent it: the same moment.
    static func head(_ json: inout JSONWriter, _ type: String) {
        let now = Date()
        json.field("type", type)
        json.field("created_at", now)
        json.field("received_at", now)
        json.emptyObject("custom")
    }

    /// Generated types, as the API's replies encode them; nil ones left out.
    private static func fields(_ json: inout JSONWriter, _ fields: [(String, (any Encodable)?)]) {
        for case (let name, let value?) in fields {
            guard let bytes = try? encoded(value) else { continue }
            json.key(name)
            json.raw(bytes)
        }
    }

    private static func encoded(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }
}
