import Logging

/// Where comments live. A user comments on activities they may read (not on one whose
/// `restrict_replies` is `nobody`, unless it is theirs); edits are the author's, deletes the
/// author's or the activity owner's; the server may do all, for the user it names.
public protocol CommentStore: Sendable {
    /// Stores a comment (a taken id is a conflict); its linked uploads become attached.
    func addComment(_ draft: CommentDraft, by principal: Principal, logger: Logger) async throws -> Comment

    /// Stores all of `drafts` or none (AddCommentsBatch); a refusal names its item (`comments[i]`).
    func addComments(_ drafts: [CommentDraft], by principal: Principal, logger: Logger) async throws -> [Comment]

    /// A comment `principal` may read, or nil, with `ownFieldsOf`'s own reactions.
    func comment(id: String, by principal: Principal, ownFieldsOf user: String?, logger: Logger) async throws -> Comment?

    /// Applies `change` to a comment of `userID`'s; attachments no longer held are released.
    func updateComment(id: String, change: CommentChange, userID: String?, by principal: Principal, logger: Logger)
        async throws -> Comment

    /// Deletes a comment: soft (it leaves every thread and count, its replies stay reachable by
    /// id) or hard (the rows go, replies with them); either way its attachments are released.
    /// Returns the comment as it was and its activity as it is after.
    func deleteComment(id: String, hard: Bool, by principal: Principal, logger: Logger) async throws
        -> (comment: Comment, activity: Activity)

    /// Brings back a soft-deleted comment (its author's, or any for the server) under a live
    /// activity and a live parent: back in its threads and counts, without the attachments the
    /// delete released. 400 when it is not deleted. Returns it and its activity.
    func restoreComment(id: String, by principal: Principal, logger: Logger) async throws -> (comment: Comment, activity: Activity)

    /// A page of comments on activities `principal` may read, as `query` filters them.
    func queryComments(_ query: CommentQuery, by principal: Principal, logger: Logger) async throws
        -> (comments: [Comment], next: KeysetCursor?)

    /// A page of threads under an activity or a comment `principal` may read.
    func commentThreads(_ query: CommentThreadQuery, by principal: Principal, logger: Logger) async throws -> CommentPage
}
