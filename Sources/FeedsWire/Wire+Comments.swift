import FeedsAPI
import FeedsCore
import FeedsUploads
import Foundation

/// Comments as the wire's response types. `mentioned` holds the users comments mention, by id.
extension Wire {
    package static func comment(_ comment: Comment, urls: AttachmentURLs, mentioned: [String: User]) throws
        -> Components.Schemas.CommentResponse
    {
        Components.Schemas.CommentResponse(
            attachments: try comment.attachments.map { try recode(urls.wire($0)) },
            bookmarkCount: Int32(clamping: comment.bookmarkCount),
            confidenceScore: 0,
            createdAt: WireTime.nanoseconds(comment.createdAt),
            custom: .init(additionalProperties: try FreeForm.containers(comment.custom)),
            deletedAt: comment.deletedAt.map(WireTime.nanoseconds),
            downvoteCount: 0,
            editedAt: comment.editedAt.map(WireTime.nanoseconds),
            id: comment.id,
            latestReactions: try comment.latestReactions.map(reaction),
            mentionedUsers: try comment.mentionedUserIDs.compactMap { try mentioned[$0].map(user) },
            objectId: comment.activityID,
            objectType: "activity",
            ownReactions: try comment.ownReactions.map(reaction),
            parentId: comment.parentID,
            reactionCount: Int32(clamping: comment.reactionCount),
            reactionGroups: .init(additionalProperties: comment.reactionGroups.mapValues(reactionGroup)),
            replyCount: Int32(clamping: comment.replyCount),
            score: 0,
            status: comment.deletedAt == nil ? .active : .deleted,
            text: comment.text,
            updatedAt: WireTime.nanoseconds(comment.updatedAt),
            upvoteCount: 0,
            user: try user(comment.user)
        )
    }

    package static func thread(_ thread: CommentThread, urls: AttachmentURLs, mentioned: [String: User]) throws
        -> Components.Schemas.ThreadedCommentResponse
    {
        let comment = try recode(
            Self.comment(thread.comment, urls: urls, mentioned: mentioned), as: Components.Schemas.ThreadedCommentResponse.self)
        var threaded = comment
        threaded.replies = try thread.replies.map { try Self.thread($0, urls: urls, mentioned: mentioned) }
        threaded.meta = Components.Schemas.RepliesMeta(
            depthTruncated: thread.depthTruncated, hasMore: thread.moreReplies,
            remaining: Int32(clamping: max(0, thread.comment.replyCount - thread.replies.count)))
        return threaded
    }
}
