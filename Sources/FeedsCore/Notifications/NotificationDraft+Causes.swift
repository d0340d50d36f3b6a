/// The notification each kind of write makes, and for whom: the owner of what was acted on,
/// never the actor themselves. `target_id` (what the aggregation format groups by) is the
/// activity for reactions and comments on it, the comment for reactions and replies to it, and
/// the followed user for follows.
extension NotificationDraft {
    public static func reaction(_ reaction: Reaction, to activity: Activity, copyCustom: Bool) -> NotificationDraft? {
        make(
            for: activity.user.id, by: reaction.user, type: reactionType, targetID: activity.id,
            source: reactionSource(activityID: activity.id, userID: reaction.user.id, type: reaction.type),
            target: target(activity),
            trigger: ["type": .string(reactionType), "text": .string("\(name(reaction.user)) \(reactionText)")],
            custom: copyCustom ? reaction.custom : [:], activityID: activity.id)
    }

    /// A reaction's notification's type and trigger text (after the actor's name): the store
    /// writes the same with the reaction (`ReactionNotification`).
    public static let reactionType = "reaction"
    public static let reactionText = "reacted to your activity"
    /// The most of an activity's or a comment's text a notification's context quotes.
    public static let targetTextLength = 300

    public static func commentReaction(_ reaction: Reaction, to comment: Comment, copyCustom: Bool) -> NotificationDraft? {
        var target: JSONObject = ["id": .string(comment.activityID)]
        target["comment"] = .object(commentObject(comment))
        return make(
            for: comment.user.id, by: reaction.user, type: "comment_reaction", targetID: comment.id,
            source: "comment_reaction:\(comment.id):\(reaction.user.id):\(reaction.type)", target: target,
            trigger: ["type": .string("comment_reaction"), "text": .string("\(name(reaction.user)) reacted to your comment")],
            custom: copyCustom ? reaction.custom : [:], activityID: comment.activityID)
    }

    /// A comment on an activity tells the activity's owner; a reply tells the parent comment's author.
    public static func comment(_ comment: Comment, on activity: Activity, replyingTo parent: Comment?, copyCustom: Bool)
        -> NotificationDraft?
    {
        let trigger: JSONObject = ["comment": .object(commentObject(comment))]
        if let parent {
            var target = self.target(activity)
            target["comment"] = .object(commentObject(parent))
            return make(
                for: parent.user.id, by: comment.user, type: "comment_reply", targetID: parent.id,
                source: "comment:\(comment.id)", target: target,
                trigger: trigger.merging(
                    ["type": .string("comment_reply"), "text": .string("\(name(comment.user)) replied to your comment")]
                ) { $1 },
                custom: copyCustom ? comment.custom : [:], activityID: activity.id)
        }
        return make(
            for: activity.user.id, by: comment.user, type: "comment", targetID: activity.id, source: "comment:\(comment.id)",
            target: target(activity),
            trigger: trigger.merging([
                "type": .string("comment"), "text": .string("\(name(comment.user)) commented on your activity"),
            ]) {
                $1
            },
            custom: copyCustom ? comment.custom : [:], activityID: activity.id)
    }

    /// A user named in an activity's `mentioned_user_ids` (who may read it: the store checks).
    public static func mention(of userID: String, in activity: Activity, copyCustom: Bool) -> NotificationDraft? {
        make(
            for: userID, by: activity.user, type: "mention", targetID: activity.id, source: "mention:\(activity.id):\(userID)",
            target: target(activity),
            trigger: ["type": .string("mention"), "text": .string("\(name(activity.user)) mentioned you")],
            custom: copyCustom ? activity.custom : [:], activityID: activity.id)
    }

    /// A user named in a comment's `mentioned_user_ids`.
    public static func commentMention(of userID: String, in comment: Comment, on activity: Activity, copyCustom: Bool)
        -> NotificationDraft?
    {
        var target = self.target(activity)
        target["comment"] = .object(commentObject(comment))
        return make(
            for: userID, by: comment.user, type: "comment_mention", targetID: comment.id,
            source: "comment_mention:\(comment.id):\(userID)", target: target,
            trigger: ["type": .string("comment_mention"), "text": .string("\(name(comment.user)) mentioned you in a comment")],
            custom: copyCustom ? comment.custom : [:], activityID: activity.id)
    }

    /// A follow tells the owner of the followed feed.
    public static func follow(_ follow: Follow, copyCustom: Bool) -> NotificationDraft? {
        let (owner, actor) = (follow.target.createdBy, follow.source.createdBy)
        return make(
            for: owner.id, by: actor, type: "follow", targetID: owner.id,
            source: "follow:\(follow.source.id):\(follow.target.id)",
            target: ["id": .string(owner.id), "name": owner.name.map(JSONValue.string) ?? .string(owner.id)],
            trigger: ["type": .string("follow"), "text": .string("\(name(actor)) started following you")],
            custom: copyCustom ? follow.custom : [:])
    }

    /// The source a reaction's notification was made under, to take it back with the reaction.
    public static func reactionSource(activityID: String, userID: String, type: String) -> String {
        "reaction:\(activityID):\(userID):\(type)"
    }

    public static func commentReactionSource(commentID: String, userID: String, type: String) -> String {
        "comment_reaction:\(commentID):\(userID):\(type)"
    }

    public static func followSource(source: FeedID, target: FeedID) -> String {
        "follow:\(source):\(target)"
    }

    private static func make(
        for recipient: String, by actor: User, type: String, targetID: String, source: String, target: JSONObject,
        trigger: JSONObject, custom: JSONObject, activityID: String? = nil
    ) -> NotificationDraft? {
        guard recipient != actor.id, canNotify(recipient) else { return nil }
        return NotificationDraft(
            recipient: recipient, type: type, actorID: actor.id, targetID: targetID, source: source,
            context: ["target": .object(target), "trigger": .object(trigger)], custom: custom, activityID: activityID)
    }

    private static func target(_ activity: Activity) -> JSONObject {
        var target: JSONObject = [
            "id": .string(activity.id), "type": .string(activity.type), "user_id": .string(activity.user.id),
        ]
        if let text = activity.text { target["text"] = .string(String(text.prefix(targetTextLength))) }
        return target
    }

    private static func commentObject(_ comment: Comment) -> JSONObject {
        [
            "id": .string(comment.id), "user_id": .string(comment.user.id),
            "comment": .string(String((comment.text ?? "").prefix(targetTextLength))),
        ]
    }

    private static func name(_ user: User) -> String {
        user.name.flatMap { $0.isEmpty ? nil : $0 } ?? user.id
    }
}
