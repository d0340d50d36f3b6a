import FeedsAPI
import FeedsCore
import Foundation
import Testing

@testable import FeedsWire

/// Every shape `JSONWriter` writes, against the generated type's encoding of the same value: the
/// two must read back as the same JSON. With `JSONWriterTests` (activities, users, feeds), this
/// covers each shape the API and the events send through the writer.
@Suite struct JSONWriterShapeTests {
    typealias Samples = JSONWriterTests

    @Test func reactionsAreWrittenAsTheGeneratedTypesEncodeThem() throws {
        var users: [String: [UInt8]] = [:]
        let reactions = Samples.engagement(on: "a1").latestReactions
        for reaction in reactions + reactions {
            var writer = JSONWriter()
            writer.reaction(reaction, users: &users)
            #expect(try Samples.parse(writer) == (try Samples.reference(try Wire.reaction(reaction))))
        }
    }

    @Test func bookmarksAreWrittenAsTheGeneratedTypesEncodeThem() throws {
        let pipeline = try Samples.pipeline()
        let activity = Samples.activities(pipeline)[1]
        var users: [String: [UInt8]] = [:]
        for bookmark in Samples.engagement(on: activity.id).ownBookmarks {
            var writer = JSONWriter()
            writer.bookmark(bookmark, users: &users) { json, users in
                json.activity(activity, urls: pipeline.urls, users: &users)
            }
            let reference = try Wire.bookmark(bookmark, activity: try Wire.activity(activity, urls: pipeline.urls))
            #expect(try Samples.parse(writer) == (try Samples.reference(reference)))
        }
    }

    @Test func followsAndTheirPagesAreWrittenAsTheGeneratedTypesEncodeThem() throws {
        let follows = Self.follows
        for follow in follows {
            for viewer in [Principal.server, .user(follow.source.createdBy.id), .user("stranger")] {
                var writer = JSONWriter()
                writer.follow(follow, viewer: viewer)
                #expect(try Samples.parse(writer) == (try Samples.reference(try Wire.follow(follow, viewer: viewer))))
            }
        }
        var writer = JSONWriter()
        writer.object { json in
            json.follows(
                "followers", FollowPage(follows: follows, next: nil), pagination: "followers_pagination", viewer: .server)
        }
        let reference = JSONValue.object([
            "followers": try Samples.reference(try follows.map { try Wire.follow($0, viewer: .server) }),
            "followers_pagination": .object([:]),
        ])
        #expect(try Samples.parse(writer) == reference)
    }

    @Test func aFeedsOwnFieldsAreWrittenAsTheGeneratedTypesEncodeThem() throws {
        let follows = Self.follows
        var feed = follows[0].target
        let member = FeedMember(
            feed: feed.id, user: Samples.users[0], role: "moderator", status: .member, custom: ["n": .number(1)],
            createdAt: Samples.now, updatedAt: Samples.now, inviteAcceptedAt: Samples.now, inviteRejectedAt: nil)
        for own in [
            FeedOwnData(), FeedOwnData(follows: [follows[0]], followings: [follows[1]], membership: member),
            FeedOwnData(follows: follows, followings: nil, membership: nil),
        ] {
            feed.own = own
            for viewer in [Principal.server, .user("alice")] {
                var writer = JSONWriter()
                writer.feed(feed, viewer: viewer)
                #expect(try Samples.parse(writer) == (try Samples.reference(try Wire.feed(feed, viewer: viewer))))
            }
        }
    }

    @Test func activityPagesAreWrittenAsTheGeneratedTypesEncodeThem() throws {
        let pipeline = try Samples.pipeline()
        let activities = Samples.activities(pipeline)
        var writer = JSONWriter()
        writer.object { json in json.page(ActivityPage(activities: activities, next: nil, prev: nil), urls: pipeline.urls) }
        let reference = JSONValue.object([
            "activities": try Samples.reference(try activities.map { try Wire.activity($0, urls: pipeline.urls) })
        ])
        #expect(try Samples.parse(writer) == reference)
    }

    /// Activities with nothing but their own fields (notifications, stories) are written in runs
    /// (`bareActivity`): each optional field present and absent, and `notification_context`,
    /// which the generated type does not have.
    @Test func bareActivitiesAreWrittenAsTheGeneratedTypesEncodeThem() throws {
        let pipeline = try Samples.pipeline()
        let context = #"{"target":{"id":"a1","text":"a \"walk\" ✓"},"trigger":{"type":"reaction"}}"#
        var notification = Activity(
            id: "n1", type: "reaction", user: Samples.users[1], text: nil, feeds: ["notification:alice"], visibility: .private,
            visibilityTag: nil, restrictReplies: "everyone", custom: ["k": .string("v")], attachments: [],
            createdAt: Samples.now, updatedAt: Samples.now, editedAt: nil, deletedAt: nil)
        notification.notificationContext = JSONObjectText(trusted: context)
        var story = Activity(
            id: "s1", type: "story", user: Samples.users[0], text: "gone \"soon\"", feeds: ["story:alice", "stories:bob"],
            visibility: .tag, visibilityTag: "close", restrictReplies: "people_i_follow", custom: [:], attachments: [],
            createdAt: Samples.now, updatedAt: Samples.now.addingTimeInterval(1), editedAt: Samples.now.addingTimeInterval(1),
            deletedAt: Samples.now.addingTimeInterval(2), expiresAt: Samples.now.addingTimeInterval(3600))
        story.isWatched = false
        var users: [String: [UInt8]] = [:]
        for activity in [notification, story, notification, story] {
            var writer = JSONWriter()
            writer.activity(activity, urls: pipeline.urls, users: &users)
            guard case .object(var reference) = try Samples.reference(try Wire.activity(activity, urls: pipeline.urls)) else {
                Issue.record("an activity is not an object")
                return
            }
            if let text = activity.notificationContext?.text {
                reference["notification_context"] = try JSONValue(parsing: text)
            }
            #expect(try Samples.parse(writer) == .object(reference))
        }
    }

    @Test func aggregatedGroupsAreWrittenAsTheGeneratedTypesEncodeThem() throws {
        let pipeline = try Samples.pipeline()
        let activities = Samples.activities(pipeline)
        let groups = [
            AggregatedGroup(
                group: "like_2026-11-27", activities: Array(activities.prefix(2)), activityCount: 7, userCount: 2,
                createdAt: Samples.now, updatedAt: Samples.now.addingTimeInterval(3), isRead: false, isSeen: true),
            AggregatedGroup(
                group: "story \"quoted\"", activities: [], activityCount: 0, userCount: 0, createdAt: Samples.now,
                updatedAt: Samples.now, isRead: true, isSeen: false, isWatched: true),
        ]
        var users: [String: [UInt8]] = [:]
        for group in groups {
            var writer = JSONWriter()
            writer.aggregatedActivity(group, urls: pipeline.urls, users: &users)
            let reference = Components.Schemas.AggregatedActivityResponse(
                activities: try group.activities.map { try Wire.activity($0, urls: pipeline.urls) },
                activityCount: Int32(group.activityCount), createdAt: WireTime.nanoseconds(group.createdAt), group: group.group,
                isRead: group.isRead, isSeen: group.isSeen, isWatched: group.isWatched, score: 0,
                updatedAt: WireTime.nanoseconds(group.updatedAt), userCount: Int32(group.userCount), userCountTruncated: false)
            #expect(try Samples.parse(writer) == (try Samples.reference(reference)))
        }
    }

    @Test func notificationStatusIsWrittenAsTheGeneratedTypeEncodesIt() throws {
        let statuses = [
            NotificationStatus(unread: 0, unseen: 0, lastReadAt: nil, lastSeenAt: nil, readGroups: [], seenGroups: []),
            NotificationStatus(
                unread: 3, unseen: 12, lastReadAt: Samples.now, lastSeenAt: Samples.now.addingTimeInterval(-60),
                readGroups: ["a", "b\"c"], seenGroups: ["a"]),
        ]
        for status in statuses {
            var writer = JSONWriter()
            writer.notificationStatus(status)
            let reference = Components.Schemas.NotificationStatusResponse(
                lastReadAt: status.lastReadAt.map(WireTime.nanoseconds), lastSeenAt: status.lastSeenAt.map(WireTime.nanoseconds),
                readActivities: status.readGroups, seenActivities: status.seenGroups, unread: Int32(status.unread),
                unseen: Int32(status.unseen))
            #expect(try Samples.parse(writer) == (try Samples.reference(reference)))
        }
    }

    // MARK: Samples

    static var follows: [Follow] {
        let feeds = Samples.users.enumerated().map { index, user in
            Feed(
                id: try! FeedID(group: index == 0 ? "timeline" : "user", id: "owner-\(index)"), name: "", description: "",
                custom: [:], createdBy: user, activityCount: index, createdAt: Samples.now, updatedAt: Samples.now)
        }
        return [
            Follow(
                source: feeds[0], target: feeds[1], status: .accepted, pushPreference: "all", followerRole: "",
                custom: [:], createdAt: Samples.now, updatedAt: Samples.now, requestAcceptedAt: nil, requestRejectedAt: nil),
            Follow(
                source: feeds[1], target: feeds[0], status: .pending, pushPreference: "none", followerRole: "moderator",
                custom: ["why": .string("\"friends\"")], createdAt: Samples.now, updatedAt: Samples.now.addingTimeInterval(2),
                requestAcceptedAt: Samples.now.addingTimeInterval(1), requestRejectedAt: Samples.now.addingTimeInterval(2)),
        ]
    }
}
