/// What a caller may do with a feed, as Stream's `own_capabilities` names it: client UIs offer the
/// post box, the like and comment buttons, follow and edit from this list. It is `FeedPermissions`
/// spelt in Stream's capability names, so it says what the handlers enforce, nothing more.
public enum FeedCapabilities {
    /// The capability names of each action of the table.
    static let names: [FeedAction: [String]] = [
        .read: ["read-feed", "read-activities", "query-follows"],
        .engage: [
            "add-activity-reaction", "delete-own-activity-reaction", "add-comment", "add-comment-reaction",
            "delete-own-comment-reaction", "update-own-comment", "delete-own-comment", "add-activity-bookmark",
            "update-own-activity-bookmark", "delete-own-activity-bookmark",
        ],
        .post: ["add-activity"],
        .update: ["update-feed"],
        .follow: ["follow", "unfollow"],
        .manageFollowers: ["update-feed-followers"],
    ]
    /// Anyone who may read a feed may edit and delete their own activities (in whatever feed).
    static let ownActivities = ["update-own-activity", "delete-own-activity"]
    /// The server's besides.
    static let server = ["update-any-activity", "delete-any-activity", "update-any-comment", "delete-any-comment"]

    /// The capabilities of `principal` on a feed of `visibility` owned by `ownerID`, sorted. A user
    /// who sees the feed and does not own it may read it, so is a follower of a `followers` feed.
    public static func of(_ principal: Principal, ownerID: String, visibility: FeedVisibility) -> [String] {
        let role: FeedRole =
            switch principal {
            case .server: .server
            case .user(let id) where id == ownerID: .owner
            case .user: visibility == .followers ? .follower : .stranger
            }
        return of(role, visibility: visibility)
    }

    /// The capabilities of `role` on a feed of `visibility`, sorted.
    public static func of(_ role: FeedRole, visibility: FeedVisibility) -> [String] {
        var capabilities = FeedAction.allCases.filter { FeedPermissions.allows($0, role, visibility) }.flatMap { names[$0] ?? [] }
        if FeedPermissions.allows(.read, role, visibility) { capabilities += ownActivities }
        if role == .server { capabilities += server }
        return capabilities.sorted()
    }
}
