import FeedsCore
import HTTPTypes

/// Every operation of `openapi.yaml`: its method, path and name, and the rate-limit class it
/// counts against (reads and queries, writes, uploads). `APIOperationTests` holds it to the spec.
/// A request finds its operation here (the rate limits), and one no route took finds here why
/// (404, or 405 with the methods its path takes).
struct APIOperation: Sendable {
    let method: HTTPRequest.Method
    let path: String
    let name: String
    let rateLimitClass: RateLimitClass
    let segments: [Substring]

    init(_ method: HTTPRequest.Method, _ path: String, _ name: String, _ rateLimitClass: RateLimitClass) {
        self.method = method
        self.path = path
        self.name = name
        self.rateLimitClass = rateLimitClass
        self.segments = path.split(separator: "/")
    }

    /// Whether its reads may go to a read replica: every read but GetOG, which stores what it fetched.
    var readsFromReplica: Bool { rateLimitClass == .read && name != "GetOG" }

    static let all: [APIOperation] = [
        .init(.get, "/api/v2/app", "GetApp", .read),
        .init(.patch, "/api/v2/app", "UpdateApp", .write),
        .init(.get, "/api/v2/rate_limits", "GetRateLimits", .read),
        .init(.post, "/api/v2/devices", "CreateDevice", .write),
        .init(.post, "/api/v2/push_preferences", "UpdatePushNotificationPreferences", .write),
        .init(.get, "/api/v2/devices", "ListDevices", .read),
        .init(.delete, "/api/v2/devices", "DeleteDevice", .write),
        .init(.post, "/api/v2/feeds/activities", "AddActivity", .write),
        .init(.post, "/api/v2/feeds/activities/delete", "DeleteActivities", .write),
        .init(.post, "/api/v2/feeds/activities/query", "QueryActivities", .read),
        .init(.get, "/api/v2/feeds/activities/{id}", "GetActivity", .read),
        .init(.put, "/api/v2/feeds/activities/{id}", "UpdateActivity", .write),
        .init(.patch, "/api/v2/feeds/activities/{id}", "UpdateActivityPartial", .write),
        .init(.delete, "/api/v2/feeds/activities/{id}", "DeleteActivity", .write),
        .init(.get, "/api/v2/feeds/feed_groups", "ListFeedGroups", .read),
        .init(.post, "/api/v2/feeds/feed_groups", "CreateFeedGroup", .write),
        .init(.post, "/api/v2/feeds/feed_groups/{feed_group_id}/restore", "RestoreFeedGroup", .write),
        .init(.get, "/api/v2/feeds/feed_groups/{feed_group_id}", "GetFeedGroup", .read),
        .init(.post, "/api/v2/feeds/feed_groups/{feed_group_id}", "GetOrCreateFeedGroup", .write),
        .init(.put, "/api/v2/feeds/feed_groups/{feed_group_id}", "UpdateFeedGroup", .write),
        .init(.delete, "/api/v2/feeds/feed_groups/{feed_group_id}", "DeleteFeedGroup", .write),
        .init(.post, "/api/v2/feeds/membership_levels", "CreateMembershipLevel", .write),
        .init(.post, "/api/v2/feeds/membership_levels/query", "QueryMembershipLevels", .read),
        .init(.delete, "/api/v2/feeds/membership_levels/{id}", "DeleteMembershipLevel", .write),
        .init(.patch, "/api/v2/feeds/membership_levels/{id}", "UpdateMembershipLevel", .write),
        .init(.get, "/api/v2/feeds/feed_visibilities", "ListFeedVisibilities", .read),
        .init(.get, "/api/v2/feeds/feed_visibilities/{name}", "GetFeedVisibility", .read),
        .init(.put, "/api/v2/feeds/feed_visibilities/{name}", "UpdateFeedVisibility", .write),
        .init(.get, "/api/v2/feeds/feed_views", "ListFeedViews", .read),
        .init(.post, "/api/v2/feeds/feed_views", "CreateFeedView", .write),
        .init(.get, "/api/v2/feeds/feed_views/{id}", "GetFeedView", .read),
        .init(.post, "/api/v2/feeds/feed_views/{id}", "GetOrCreateFeedView", .write),
        .init(.put, "/api/v2/feeds/feed_views/{id}", "UpdateFeedView", .write),
        .init(.delete, "/api/v2/feeds/feed_views/{id}", "DeleteFeedView", .write),
        .init(.post, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}", "GetOrCreateFeed", .read),
        .init(.put, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}", "UpdateFeed", .write),
        .init(.delete, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}", "DeleteFeed", .write),
        .init(.post, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}/change_visibility", "ChangeFeedVisibility", .write),
        .init(.delete, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}/watch", "StopWatchingFeed", .write),
        .init(.patch, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}/members", "UpdateFeedMembers", .write),
        .init(.post, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}/members/accept", "AcceptFeedMemberInvite", .write),
        .init(.post, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}/members/query", "QueryFeedMembers", .read),
        .init(.post, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}/members/reject", "RejectFeedMemberInvite", .write),
        .init(.post, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}/activities/mark/batch", "MarkActivity", .write),
        .init(.post, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}/activities/{activity_id}/pin", "PinActivity", .write),
        .init(.delete, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}/activities/{activity_id}/pin", "UnpinActivity", .write),
        .init(.post, "/api/v2/feeds/feed_groups/{feed_group_id}/feeds/{feed_id}/pinned_activities/query", "QueryPinnedActivities", .read),
        .init(.post, "/api/v2/feeds/feeds/query", "QueryFeeds", .read),
        .init(.post, "/api/v2/feeds/feeds/own/batch", "OwnBatch", .read),
        .init(.post, "/api/v2/feeds/feeds/own_capabilities/batch", "OwnCapabilitiesBatch", .read),
        .init(.post, "/api/v2/feeds/feeds/batch", "CreateFeedsBatch", .write),
        .init(.post, "/api/v2/feeds/feeds/delete", "DeleteFeedsBatch", .write),
        .init(.get, "/api/v2/tasks/{id}", "GetTask", .read),
        .init(.get, "/api/v2/feeds/feed_groups/{feed_group_id}/follow_suggestions", "GetFollowSuggestions", .read),
        .init(.get, "/api/v2/users", "QueryUsers", .read),
        .init(.post, "/api/v2/users", "UpdateUsers", .write),
        .init(.patch, "/api/v2/users", "UpdateUsersPartial", .write),
        .init(.get, "/api/v2/og", "GetOG", .read),
        .init(.get, "/api/v2/users/block", "GetBlockedUsers", .read),
        .init(.post, "/api/v2/users/block", "BlockUsers", .write),
        .init(.post, "/api/v2/users/unblock", "UnblockUsers", .write),
        .init(.post, "/api/v2/guest", "CreateGuest", .write),
        .init(.post, "/api/v2/users/{user_id}/deactivate", "DeactivateUser", .write),
        .init(.post, "/api/v2/users/deactivate", "DeactivateUsers", .write),
        .init(.post, "/api/v2/users/{user_id}/reactivate", "ReactivateUser", .write),
        .init(.post, "/api/v2/users/reactivate", "ReactivateUsers", .write),
        .init(.post, "/api/v2/users/delete", "DeleteUsers", .write),
        .init(.post, "/api/v2/users/restore", "RestoreUsers", .write),
        .init(.post, "/api/v2/feeds/users/{user_id}/delete", "DeleteFeedUserData", .write),
        .init(.post, "/api/v2/feeds/users/{user_id}/export", "ExportFeedUserData", .write),
        .init(.post, "/api/v2/export/users", "ExportUsers", .write),
        .init(.post, "/api/v2/uploads/file", "UploadFile", .upload),
        .init(.delete, "/api/v2/uploads/file", "DeleteFile", .write),
        .init(.post, "/api/v2/uploads/image", "UploadImage", .upload),
        .init(.delete, "/api/v2/uploads/image", "DeleteImage", .write),
        .init(.post, "/api/v2/feeds/follows", "Follow", .write),
        .init(.patch, "/api/v2/feeds/follows", "UpdateFollow", .write),
        .init(.post, "/api/v2/feeds/unfollow/batch", "UnfollowBatch", .write),
        .init(.post, "/api/v2/feeds/unfollow/batch/upsert", "GetOrCreateUnfollows", .write),
        .init(.post, "/api/v2/feeds/unfollow/upsert", "GetOrCreateUnfollow", .write),
        .init(.delete, "/api/v2/feeds/follows/{source}/{target}", "Unfollow", .write),
        .init(.post, "/api/v2/feeds/follows/batch", "FollowBatch", .write),
        .init(.post, "/api/v2/feeds/follows/batch/upsert", "GetOrCreateFollows", .write),
        .init(.post, "/api/v2/feeds/follows/upsert", "GetOrCreateFollow", .write),
        .init(.post, "/api/v2/feeds/follows/query", "QueryFollows", .read),
        .init(.post, "/api/v2/feeds/follows/accept", "AcceptFollow", .write),
        .init(.post, "/api/v2/feeds/follows/reject", "RejectFollow", .write),
        .init(.post, "/api/v2/feeds/activities/{id}/reactions", "AddActivityReaction", .write),
        .init(.post, "/api/v2/feeds/activities/{id}/reactions/query", "QueryActivityReactions", .read),
        .init(.post, "/api/v2/feeds/activities/reactions/query", "BatchQueryActivityReactions", .read),
        .init(.patch, "/api/v2/feeds/activities/batch/partial", "UpdateActivitiesPartialBatch", .write),
        .init(.post, "/api/v2/feeds/activities/batch", "UpsertActivities", .write),
        .init(.delete, "/api/v2/feeds/activities/{id}/reactions/{type}", "DeleteActivityReaction", .write),
        .init(.post, "/api/v2/feeds/activities/{id}/bookmarks", "AddBookmark", .write),
        .init(.patch, "/api/v2/feeds/activities/{id}/bookmarks", "UpdateBookmark", .write),
        .init(.delete, "/api/v2/feeds/activities/{id}/bookmarks", "DeleteBookmark", .write),
        .init(.post, "/api/v2/feeds/activities/{id}/feedback", "ActivityFeedback", .write),
        .init(.post, "/api/v2/feeds/comments/{id}/bookmarks", "AddCommentBookmark", .write),
        .init(.patch, "/api/v2/feeds/comments/{id}/bookmarks", "UpdateCommentBookmark", .write),
        .init(.delete, "/api/v2/feeds/comments/{id}/bookmarks", "DeleteCommentBookmark", .write),
        .init(.post, "/api/v2/feeds/bookmarks/query", "QueryBookmarks", .read),
        .init(.post, "/api/v2/feeds/bookmark_folders/query", "QueryBookmarkFolders", .read),
        .init(.patch, "/api/v2/feeds/bookmark_folders/{folder_id}", "UpdateBookmarkFolder", .write),
        .init(.delete, "/api/v2/feeds/bookmark_folders/{folder_id}", "DeleteBookmarkFolder", .write),
        .init(.post, "/api/v2/feeds/comments", "AddComment", .write),
        .init(.post, "/api/v2/feeds/comments/batch", "AddCommentsBatch", .write),
        .init(.get, "/api/v2/feeds/comments", "GetComments", .read),
        .init(.get, "/api/v2/feeds/comments/{id}", "GetComment", .read),
        .init(.put, "/api/v2/feeds/comments/{id}", "ReplaceComment", .write),
        .init(.patch, "/api/v2/feeds/comments/{id}", "UpdateComment", .write),
        .init(.delete, "/api/v2/feeds/comments/{id}", "DeleteComment", .write),
        .init(.get, "/api/v2/feeds/comments/{id}/replies", "GetCommentReplies", .read),
        .init(.post, "/api/v2/feeds/comments/{id}/reactions", "AddCommentReaction", .write),
        .init(.post, "/api/v2/feeds/comments/{id}/reactions/query", "QueryCommentReactions", .read),
        .init(.post, "/api/v2/feeds/comments/reactions/query", "BatchQueryCommentReactions", .read),
        .init(.delete, "/api/v2/feeds/comments/{id}/reactions/{type}", "DeleteCommentReaction", .write),
        .init(.post, "/api/v2/feeds/comments/query", "QueryComments", .read),
        .init(.post, "/api/v2/feeds/activities/{id}/restore", "RestoreActivity", .write),
        .init(.post, "/api/v2/feeds/comments/{id}/partial", "UpdateCommentPartial", .write),
        .init(.post, "/api/v2/feeds/comments/{id}/restore", "RestoreComment", .write),
        .init(.post, "/api/v2/feeds/activities/{id}/polls/{poll_id}/vote", "CastPollVote", .write),
        .init(.delete, "/api/v2/feeds/activities/{id}/polls/{poll_id}/vote/{vote_id}", "DeletePollVote", .write),
        .init(.post, "/api/v2/polls", "CreatePoll", .write),
        .init(.put, "/api/v2/polls", "UpdatePoll", .write),
        .init(.post, "/api/v2/polls/query", "QueryPolls", .read),
        .init(.get, "/api/v2/polls/{poll_id}", "GetPoll", .read),
        .init(.patch, "/api/v2/polls/{poll_id}", "UpdatePollPartial", .write),
        .init(.delete, "/api/v2/polls/{poll_id}", "DeletePoll", .write),
        .init(.post, "/api/v2/polls/{poll_id}/options", "CreatePollOption", .write),
        .init(.put, "/api/v2/polls/{poll_id}/options", "UpdatePollOption", .write),
        .init(.get, "/api/v2/polls/{poll_id}/options/{option_id}", "GetPollOption", .read),
        .init(.delete, "/api/v2/polls/{poll_id}/options/{option_id}", "DeletePollOption", .write),
        .init(.post, "/api/v2/polls/{poll_id}/votes", "QueryPollVotes", .read),
    ]

    /// The operation a request is for: its method and the template its path matches, literal
    /// segments preferred to parameters (as the router prefers them).
    static func matching(_ method: HTTPRequest.Method, path: Substring) -> APIOperation? {
        matching(path: path).first { $0.method == method }
    }

    /// The error for a request no route matched, and the `Allow` header when its path exists.
    static func unmatched(method: HTTPRequest.Method, path: String) -> (FeedsError, allow: String?) {
        let methods = Set(matching(path: path[...]).map(\.method.rawValue))
        guard !methods.isEmpty else { return (.notFound("no route for \(method.rawValue) \(path)"), nil) }
        let allow = methods.sorted().joined(separator: ", ")
        return (FeedsError(.methodNotAllowed, "\(method.rawValue) is not allowed on \(path); use \(allow)"), allow)
    }

    /// The operations whose template `path` matches with the most literal segments, any method.
    private static func matching(path: Substring) -> [APIOperation] {
        let segments = path.split(separator: "/")
        var best: (operations: [APIOperation], literals: Int) = ([], -1)
        for operation in all where operation.segments.count == segments.count {
            var literals = 0
            var matches = true
            for (template, segment) in zip(operation.segments, segments) where template.first != "{" {
                guard template == segment else {
                    matches = false
                    break
                }
                literals += 1
            }
            guard matches, literals >= best.literals else { continue }
            best = literals > best.literals ? ([operation], literals) : (best.operations + [operation], literals)
        }
        return best.operations
    }
}
