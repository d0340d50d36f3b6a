import FeedsAPI
import FeedsCore
import FeedsUploads
import Foundation

/// Domain values as the wire's response types, with every field the reference requires.
package enum Wire {
    /// An activity as the wire shows it, with fresh signed URLs for its uploaded attachments.
    /// Its own bookmarks carry the activity again, without theirs.
    package static func activity(_ activity: Activity, urls: AttachmentURLs) throws -> Components.Schemas.ActivityResponse {
        let engagement = activity.engagement
        var bare = activity
        bare.engagement.ownBookmarks = []
        var ownBookmarks: [Components.Schemas.BookmarkResponse] = []
        if !engagement.ownBookmarks.isEmpty {
            let nested = try Wire.activity(bare, urls: urls)
            ownBookmarks = try engagement.ownBookmarks.map { try bookmark($0, activity: nested) }
        }
        return Components.Schemas.ActivityResponse(
            attachments: try activity.attachments.map { try recode(urls.wire($0)) },
            bookmarkCount: Int32(clamping: engagement.bookmarkCount),
            collections: .init(),
            commentCount: Int32(clamping: engagement.commentCount),
            comments: [],
            createdAt: WireTime.nanoseconds(activity.createdAt),
            currentFeed: try activity.currentFeed.map { try feed($0.feed, viewer: $0.viewer) },
            custom: .init(additionalProperties: try FreeForm.containers(activity.custom)),
            deletedAt: activity.deletedAt.map(WireTime.nanoseconds),
            editedAt: activity.editedAt.map(WireTime.nanoseconds),
            expiresAt: activity.expiresAt.map(WireTime.nanoseconds),
            feeds: activity.feeds,
            filterTags: [],
            hidden: activity.hidden,
            id: activity.id,
            interestTags: [],
            isWatched: activity.isWatched,
            latestReactions: try engagement.latestReactions.map(reaction),
            mentionedUsers: try activity.mentionedUsers.map(user),
            ownBookmarks: ownBookmarks,
            ownReactions: try engagement.ownReactions.map(reaction),
            parent: try activity.parent.map { try Wire.activity($0, urls: urls) },
            poll: try activity.poll.map(poll),
            popularity: Int32(clamping: engagement.popularity),
            preview: activity.preview,
            reactionCount: Int32(clamping: engagement.reactionCount),
            reactionGroups: .init(additionalProperties: engagement.reactionGroups.mapValues(reactionGroup)),
            restrictReplies: .init(rawValue: activity.restrictReplies) ?? .everyone,
            score: 0,
            searchData: .init(),
            shareCount: Int32(clamping: engagement.shareCount),
            text: activity.text,
            _type: activity.type,
            updatedAt: WireTime.nanoseconds(activity.updatedAt),
            user: try user(activity.user),
            visibility: .init(rawValue: activity.visibility.rawValue) ?? ._public,
            visibilityTag: activity.visibilityTag
        )
    }

    package static func user(_ user: User) throws -> Components.Schemas.UserResponse {
        Components.Schemas.UserResponse(
            banned: false,
            blockedUserIds: [],
            createdAt: WireTime.nanoseconds(user.createdAt),
            custom: .init(additionalProperties: try FreeForm.containers(user.custom)),
            id: user.id,
            image: user.image,
            invisible: false,
            language: user.language,
            name: user.name,
            online: false,
            role: user.role,
            shadowBanned: false,
            teams: user.teams,
            updatedAt: WireTime.nanoseconds(user.updatedAt)
        )
    }

    package static func fullUser(_ user: User) throws -> Components.Schemas.FullUserResponse {
        Components.Schemas.FullUserResponse(
            banned: false,
            blockedUserIds: [],
            channelMutes: [],
            createdAt: WireTime.nanoseconds(user.createdAt),
            custom: .init(additionalProperties: try FreeForm.containers(user.custom)),
            devices: [],
            id: user.id,
            image: user.image,
            invisible: false,
            language: user.language,
            mutes: [],
            name: user.name,
            online: false,
            role: user.role,
            shadowBanned: false,
            teams: user.teams,
            totalUnreadCount: 0,
            unreadChannels: 0,
            unreadCount: 0,
            unreadThreads: 0,
            updatedAt: WireTime.nanoseconds(user.updatedAt)
        )
    }
}

extension Wire {
    /// A feed as the wire shows it, with `viewer`'s capabilities on it.
    package static func feed(_ feed: Feed, viewer: Principal) throws -> Components.Schemas.FeedResponse {
        Components.Schemas.FeedResponse(
            activityCount: Int32(clamping: feed.activityCount),
            createdAt: WireTime.nanoseconds(feed.createdAt),
            createdBy: try user(feed.createdBy),
            custom: .init(additionalProperties: try FreeForm.containers(feed.custom)),
            description: feed.description,
            feed: feed.id.description,
            followerCount: Int32(clamping: feed.followerCount),
            followingCount: Int32(clamping: feed.followingCount),
            groupId: feed.id.group,
            id: feed.id.id,
            memberCount: Int32(clamping: feed.memberCount),
            name: feed.name,
            ownCapabilities: ownCapabilities(viewer, on: feed),
            ownFollowings: try feed.own?.followings.map { try $0.map { try follow($0, viewer: viewer) } },
            ownFollows: try feed.own.map { try $0.follows.map { try follow($0, viewer: viewer) } },
            ownMembership: try feed.own?.membership.map(feedMember),
            pinCount: Int32(clamping: feed.pinCount),
            updatedAt: WireTime.nanoseconds(feed.updatedAt),
            visibility: .init(rawValue: feed.visibility.rawValue)
        )
    }

    /// A follow with both its feeds.
    package static func follow(_ follow: Follow, viewer: Principal) throws -> Components.Schemas.FollowResponse {
        Components.Schemas.FollowResponse(
            createdAt: WireTime.nanoseconds(follow.createdAt),
            custom: .init(additionalProperties: try FreeForm.containers(follow.custom)),
            followerRole: follow.followerRole,
            pushPreference: .init(rawValue: follow.pushPreference) ?? .none,
            requestAcceptedAt: follow.requestAcceptedAt.map(WireTime.nanoseconds),
            requestRejectedAt: follow.requestRejectedAt.map(WireTime.nanoseconds),
            sourceFeed: try feed(follow.source, viewer: viewer),
            status: .init(rawValue: follow.status.rawValue) ?? .pending,
            targetFeed: try feed(follow.target, viewer: viewer),
            updatedAt: WireTime.nanoseconds(follow.updatedAt)
        )
    }
}
