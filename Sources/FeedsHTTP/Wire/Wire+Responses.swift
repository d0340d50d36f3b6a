import FeedsAPI
import FeedsCore
import FeedsUploads
import Foundation

/// Domain values as the wire's response types, with every field the reference requires.
enum Wire {
    /// An activity as the wire shows it, with fresh signed URLs for its uploaded attachments.
    static func activity(_ activity: Activity, urls: AttachmentURLs) throws -> Components.Schemas.ActivityResponse {
        Components.Schemas.ActivityResponse(
            attachments: try activity.attachments.map { try recode(urls.wire($0)) },
            bookmarkCount: 0,
            collections: .init(),
            commentCount: 0,
            comments: [],
            createdAt: WireTime.nanoseconds(activity.createdAt),
            custom: .init(additionalProperties: try FreeForm.containers(activity.custom)),
            deletedAt: activity.deletedAt.map(WireTime.nanoseconds),
            editedAt: activity.editedAt.map(WireTime.nanoseconds),
            feeds: activity.feeds,
            filterTags: [],
            hidden: false,
            id: activity.id,
            interestTags: [],
            latestReactions: [],
            mentionedUsers: [],
            ownBookmarks: [],
            ownReactions: [],
            popularity: 0,
            preview: false,
            reactionCount: 0,
            reactionGroups: .init(),
            restrictReplies: .init(rawValue: activity.restrictReplies) ?? .everyone,
            score: 0,
            searchData: .init(),
            shareCount: 0,
            text: activity.text,
            _type: activity.type,
            updatedAt: WireTime.nanoseconds(activity.updatedAt),
            user: try user(activity.user),
            visibility: .init(rawValue: activity.visibility.rawValue) ?? ._public,
            visibilityTag: activity.visibilityTag
        )
    }

    static func user(_ user: User) throws -> Components.Schemas.UserResponse {
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

    static func fullUser(_ user: User) throws -> Components.Schemas.FullUserResponse {
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
