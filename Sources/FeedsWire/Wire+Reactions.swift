import FeedsAPI
import FeedsCore
import Foundation

/// Reactions, bookmarks and folders as the wire's response types.
extension Wire {
    package static func reaction(_ reaction: Reaction) throws -> Components.Schemas.FeedsReactionResponse {
        Components.Schemas.FeedsReactionResponse(
            activityId: reaction.activityID,
            commentId: reaction.commentID,
            createdAt: WireTime.nanoseconds(reaction.createdAt),
            custom: .init(additionalProperties: try FreeForm.containers(reaction.custom)),
            _type: reaction.type,
            updatedAt: WireTime.nanoseconds(reaction.updatedAt),
            user: try user(reaction.user)
        )
    }

    package static func reactionGroup(_ group: ReactionGroup) -> Components.Schemas.FeedsReactionGroupResponse {
        Components.Schemas.FeedsReactionGroupResponse(
            count: Int32(clamping: group.count),
            firstReactionAt: WireTime.nanoseconds(group.firstReactionAt),
            lastReactionAt: WireTime.nanoseconds(group.lastReactionAt)
        )
    }

    /// A bookmark with `activity`, the activity it marks as the wire shows it.
    /// A bookmark with its activity and, for a comment's, its comment.
    package static func bookmark(
        _ bookmark: Bookmark, activity: Components.Schemas.ActivityResponse, comment: Components.Schemas.CommentResponse? = nil
    ) throws -> Components.Schemas.BookmarkResponse {
        Components.Schemas.BookmarkResponse(
            activity: activity,
            activityId: bookmark.activityID,
            comment: comment,
            createdAt: WireTime.nanoseconds(bookmark.createdAt),
            custom: .init(additionalProperties: try FreeForm.containers(bookmark.custom)),
            folder: try bookmark.folder.map(folder),
            objectId: bookmark.commentID ?? bookmark.activityID,
            objectType: bookmark.commentID == nil ? "activity" : "comment",
            updatedAt: WireTime.nanoseconds(bookmark.updatedAt),
            user: try user(bookmark.user)
        )
    }

    package static func folder(_ folder: BookmarkFolder) throws -> Components.Schemas.BookmarkFolderResponse {
        Components.Schemas.BookmarkFolderResponse(
            createdAt: WireTime.nanoseconds(folder.createdAt),
            custom: .init(additionalProperties: try FreeForm.containers(folder.custom)),
            id: folder.id,
            name: folder.name,
            updatedAt: WireTime.nanoseconds(folder.updatedAt),
            user: try user(folder.user)
        )
    }
}
