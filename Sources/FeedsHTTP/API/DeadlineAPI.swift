import FeedsAPI
import FeedsCore

/// The API with a deadline on every operation (`withDeadline`): each is answered within `limit`,
/// whatever the database or the store are doing, with 503 and a Retry-After past it. The
/// operations whose multipart body streams while they work are left to the store's own
/// timeouts, since answering early would leave their body half read; `AddActivityRoute` and
/// `FeedPageRoutes` put the same deadline on their JSON work.
struct DeadlineAPI<Base: APIProtocol>: APIProtocol {
    let base: Base
    let limit: Duration

    private func bounded<Output: Sendable>(
        _ operation: String, _ work: @escaping @Sendable () async throws -> Output
    ) async throws -> Output {
        try await withDeadline(limit, operation, work)
    }

    func getApp(_ input: Operations.GetApp.Input) async throws -> Operations.GetApp.Output {
        try await bounded("GetApp") { [base] in try await base.getApp(input) }
    }

    func updateApp(_ input: Operations.UpdateApp.Input) async throws -> Operations.UpdateApp.Output {
        try await bounded("UpdateApp") { [base] in try await base.updateApp(input) }
    }

    func getRateLimits(_ input: Operations.GetRateLimits.Input) async throws -> Operations.GetRateLimits.Output {
        try await bounded("GetRateLimits") { [base] in try await base.getRateLimits(input) }
    }

    func deleteActivities(_ input: Operations.DeleteActivities.Input) async throws -> Operations.DeleteActivities.Output {
        try await bounded("DeleteActivities") { [base] in try await base.deleteActivities(input) }
    }

    func queryActivities(_ input: Operations.QueryActivities.Input) async throws -> Operations.QueryActivities.Output {
        try await bounded("QueryActivities") { [base] in try await base.queryActivities(input) }
    }

    func getActivity(_ input: Operations.GetActivity.Input) async throws -> Operations.GetActivity.Output {
        try await bounded("GetActivity") { [base] in try await base.getActivity(input) }
    }

    func updateActivityPartial(_ input: Operations.UpdateActivityPartial.Input) async throws
        -> Operations.UpdateActivityPartial.Output
    {
        try await bounded("UpdateActivityPartial") { [base] in try await base.updateActivityPartial(input) }
    }

    func updateActivity(_ input: Operations.UpdateActivity.Input) async throws -> Operations.UpdateActivity.Output {
        try await bounded("UpdateActivity") { [base] in try await base.updateActivity(input) }
    }

    func deleteActivity(_ input: Operations.DeleteActivity.Input) async throws -> Operations.DeleteActivity.Output {
        try await bounded("DeleteActivity") { [base] in try await base.deleteActivity(input) }
    }

    func getOrCreateFeed(_ input: Operations.GetOrCreateFeed.Input) async throws -> Operations.GetOrCreateFeed.Output {
        try await bounded("GetOrCreateFeed") { [base] in try await base.getOrCreateFeed(input) }
    }

    func updateFeed(_ input: Operations.UpdateFeed.Input) async throws -> Operations.UpdateFeed.Output {
        try await bounded("UpdateFeed") { [base] in try await base.updateFeed(input) }
    }

    func stopWatchingFeed(_ input: Operations.StopWatchingFeed.Input) async throws -> Operations.StopWatchingFeed.Output {
        try await bounded("StopWatchingFeed") { [base] in try await base.stopWatchingFeed(input) }
    }

    func queryFeeds(_ input: Operations.QueryFeeds.Input) async throws -> Operations.QueryFeeds.Output {
        try await bounded("QueryFeeds") { [base] in try await base.queryFeeds(input) }
    }

    func markActivity(_ input: Operations.MarkActivity.Input) async throws -> Operations.MarkActivity.Output {
        try await bounded("MarkActivity") { [base] in try await base.markActivity(input) }
    }

    func follow(_ input: Operations.Follow.Input) async throws -> Operations.Follow.Output {
        try await bounded("Follow") { [base] in try await base.follow(input) }
    }

    func unfollow(_ input: Operations.Unfollow.Input) async throws -> Operations.Unfollow.Output {
        try await bounded("Unfollow") { [base] in try await base.unfollow(input) }
    }

    func followBatch(_ input: Operations.FollowBatch.Input) async throws -> Operations.FollowBatch.Output {
        try await bounded("FollowBatch") { [base] in try await base.followBatch(input) }
    }

    func queryFollows(_ input: Operations.QueryFollows.Input) async throws -> Operations.QueryFollows.Output {
        try await bounded("QueryFollows") { [base] in try await base.queryFollows(input) }
    }

    func acceptFollow(_ input: Operations.AcceptFollow.Input) async throws -> Operations.AcceptFollow.Output {
        try await bounded("AcceptFollow") { [base] in try await base.acceptFollow(input) }
    }

    func rejectFollow(_ input: Operations.RejectFollow.Input) async throws -> Operations.RejectFollow.Output {
        try await bounded("RejectFollow") { [base] in try await base.rejectFollow(input) }
    }

    func ownBatch(_ input: Operations.OwnBatch.Input) async throws -> Operations.OwnBatch.Output {
        try await bounded("OwnBatch") { [base] in try await base.ownBatch(input) }
    }

    func queryUsers(_ input: Operations.QueryUsers.Input) async throws -> Operations.QueryUsers.Output {
        try await bounded("QueryUsers") { [base] in try await base.queryUsers(input) }
    }

    func updateUsers(_ input: Operations.UpdateUsers.Input) async throws -> Operations.UpdateUsers.Output {
        try await bounded("UpdateUsers") { [base] in try await base.updateUsers(input) }
    }

    func deleteFile(_ input: Operations.DeleteFile.Input) async throws -> Operations.DeleteFile.Output {
        try await bounded("DeleteFile") { [base] in try await base.deleteFile(input) }
    }

    func deleteImage(_ input: Operations.DeleteImage.Input) async throws -> Operations.DeleteImage.Output {
        try await bounded("DeleteImage") { [base] in try await base.deleteImage(input) }
    }

    // Multipart bodies stream while these work.

    func addActivity(_ input: Operations.AddActivity.Input) async throws -> Operations.AddActivity.Output {
        try await base.addActivity(input)
    }

    func uploadFile(_ input: Operations.UploadFile.Input) async throws -> Operations.UploadFile.Output {
        try await base.uploadFile(input)
    }

    func uploadImage(_ input: Operations.UploadImage.Input) async throws -> Operations.UploadImage.Output {
        try await base.uploadImage(input)
    }

    func addActivityReaction(_ input: Operations.AddActivityReaction.Input) async throws -> Operations.AddActivityReaction.Output
    {
        try await bounded("AddActivityReaction") { [base] in try await base.addActivityReaction(input) }
    }

    func deleteActivityReaction(_ input: Operations.DeleteActivityReaction.Input) async throws
        -> Operations.DeleteActivityReaction.Output
    {
        try await bounded("DeleteActivityReaction") { [base] in try await base.deleteActivityReaction(input) }
    }

    func queryActivityReactions(_ input: Operations.QueryActivityReactions.Input) async throws
        -> Operations.QueryActivityReactions.Output
    {
        try await bounded("QueryActivityReactions") { [base] in try await base.queryActivityReactions(input) }
    }

    func addBookmark(_ input: Operations.AddBookmark.Input) async throws -> Operations.AddBookmark.Output {
        try await bounded("AddBookmark") { [base] in try await base.addBookmark(input) }
    }

    func updateBookmark(_ input: Operations.UpdateBookmark.Input) async throws -> Operations.UpdateBookmark.Output {
        try await bounded("UpdateBookmark") { [base] in try await base.updateBookmark(input) }
    }

    func deleteBookmark(_ input: Operations.DeleteBookmark.Input) async throws -> Operations.DeleteBookmark.Output {
        try await bounded("DeleteBookmark") { [base] in try await base.deleteBookmark(input) }
    }

    func queryBookmarks(_ input: Operations.QueryBookmarks.Input) async throws -> Operations.QueryBookmarks.Output {
        try await bounded("QueryBookmarks") { [base] in try await base.queryBookmarks(input) }
    }

    func queryBookmarkFolders(_ input: Operations.QueryBookmarkFolders.Input) async throws
        -> Operations.QueryBookmarkFolders.Output
    {
        try await bounded("QueryBookmarkFolders") { [base] in try await base.queryBookmarkFolders(input) }
    }

    func updateBookmarkFolder(_ input: Operations.UpdateBookmarkFolder.Input) async throws
        -> Operations.UpdateBookmarkFolder.Output
    {
        try await bounded("UpdateBookmarkFolder") { [base] in try await base.updateBookmarkFolder(input) }
    }

    func deleteBookmarkFolder(_ input: Operations.DeleteBookmarkFolder.Input) async throws
        -> Operations.DeleteBookmarkFolder.Output
    {
        try await bounded("DeleteBookmarkFolder") { [base] in try await base.deleteBookmarkFolder(input) }
    }

    /// A multipart comment streams its files while it works, as AddActivity does: left to the
    /// store's timeouts (and to `FastMultipart`, which the deadline's task would not see).
    func addComment(_ input: Operations.AddComment.Input) async throws -> Operations.AddComment.Output {
        if case .multipartForm = input.body { return try await base.addComment(input) }
        return try await bounded("AddComment") { [base] in try await base.addComment(input) }
    }

    func getComment(_ input: Operations.GetComment.Input) async throws -> Operations.GetComment.Output {
        try await bounded("GetComment") { [base] in try await base.getComment(input) }
    }

    func updateComment(_ input: Operations.UpdateComment.Input) async throws -> Operations.UpdateComment.Output {
        try await bounded("UpdateComment") { [base] in try await base.updateComment(input) }
    }

    func deleteComment(_ input: Operations.DeleteComment.Input) async throws -> Operations.DeleteComment.Output {
        try await bounded("DeleteComment") { [base] in try await base.deleteComment(input) }
    }

    func getComments(_ input: Operations.GetComments.Input) async throws -> Operations.GetComments.Output {
        try await bounded("GetComments") { [base] in try await base.getComments(input) }
    }

    func getCommentReplies(_ input: Operations.GetCommentReplies.Input) async throws -> Operations.GetCommentReplies.Output {
        try await bounded("GetCommentReplies") { [base] in try await base.getCommentReplies(input) }
    }

    func addCommentReaction(_ input: Operations.AddCommentReaction.Input) async throws -> Operations.AddCommentReaction.Output {
        try await bounded("AddCommentReaction") { [base] in try await base.addCommentReaction(input) }
    }

    func deleteCommentReaction(_ input: Operations.DeleteCommentReaction.Input) async throws
        -> Operations.DeleteCommentReaction.Output
    {
        try await bounded("DeleteCommentReaction") { [base] in try await base.deleteCommentReaction(input) }
    }

    func queryCommentReactions(_ input: Operations.QueryCommentReactions.Input) async throws
        -> Operations.QueryCommentReactions.Output
    {
        try await bounded("QueryCommentReactions") { [base] in try await base.queryCommentReactions(input) }
    }

    func queryComments(_ input: Operations.QueryComments.Input) async throws -> Operations.QueryComments.Output {
        try await bounded("QueryComments") { [base] in try await base.queryComments(input) }
    }

    func replaceComment(_ input: Operations.ReplaceComment.Input) async throws -> Operations.ReplaceComment.Output {
        try await bounded("ReplaceComment") { [base] in try await base.replaceComment(input) }
    }
}
