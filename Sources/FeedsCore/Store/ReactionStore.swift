import Logging

/// Where reactions to activities and comments live. A user reacts to, and reads the reactions of,
/// activities they may read and the comments on them; the server, to any, on behalf of a user. Replies carry the activity as it is
/// after the change, with the acting user's own reactions and bookmarks.
public protocol ReactionStore: Sendable {
    /// Stores `userID`'s reaction (the same one again replaces its custom data); with
    /// `enforceUnique`, the user's reactions of other types go first. With `notifying`, the
    /// reaction's notification is written with it (as `NotificationDraft.reaction` makes it):
    /// `notified` is what that touched, nil when none was written (the user's own activity, or
    /// one from the same reaction already there).
    func addReaction(
        _ input: ReactionInput, activityID: String, userID: String, by principal: Principal, notifying: ReactionNotification?,
        logger: Logger
    ) async throws -> (reaction: Reaction, activity: Activity, notified: NotificationTouch?)

    /// Removes `userID`'s reaction of `type`; not found when there is none.
    func deleteReaction(type: String, activityID: String, userID: String, by principal: Principal, logger: Logger)
        async throws -> (reaction: Reaction, activity: Activity)

    /// Stores `userID`'s reaction to a comment, as `addReaction` does for an activity.
    func addCommentReaction(_ input: ReactionInput, commentID: String, userID: String, by principal: Principal, logger: Logger)
        async throws -> (reaction: Reaction, comment: Comment)

    /// Removes `userID`'s reaction of `type` to a comment; not found when there is none.
    func deleteCommentReaction(type: String, commentID: String, userID: String, by principal: Principal, logger: Logger)
        async throws -> (reaction: Reaction, comment: Comment)

    /// A page of an activity's reactions, or of a comment's (`query.commentID`).
    func queryReactions(_ query: ReactionQuery, by principal: Principal, logger: Logger) async throws -> ReactionPage
}
