/// What DeleteUsers and DeleteFeedUserData take away from each of `userIDs`, as their task's
/// input. The work runs after the call, in steps (`UserEraser`); `posts` and `feedData` decide
/// what goes, `account` what becomes of the user.
public struct UserErasure: Sendable, Codable, Equatable {
    /// How their activities and comments go: soft (kept, hidden, restorable) or hard (gone, with
    /// everything that hangs off them: others' reactions and replies, their files).
    public enum Posts: String, Sendable, Codable {
        case soft, hard
    }

    /// What becomes of the account: soft (refused until RestoreUsers), pruning (soft, and the name,
    /// image and custom data cleared for good), hard (the row goes, once all that points at it has).
    public enum Account: String, Sendable, Codable {
        case soft, pruning, hard
    }

    public var userIDs: [String]
    public var posts: Posts?
    /// Everything else of theirs in Feeds: reactions, bookmarks and folders, poll votes and polls,
    /// pins, memberships, feedback, stories watched, the notifications they caused, and the feeds
    /// they own (with the follows to and from them).
    public var feedData: Bool
    /// Their uploaded files: the bytes deleted from the store and every cached variant purged.
    public var files: Bool
    public var account: Account?

    public init(userIDs: [String], posts: Posts?, feedData: Bool, files: Bool, account: Account?) {
        (self.userIDs, self.posts, self.feedData, self.files, self.account) = (userIDs, posts, feedData, files, account)
    }

    /// DeleteUsers' options. A hard account takes everything with it: nothing may point at a user
    /// that is gone. Chat's and Video's options are refused rather than ignored.
    public static func deleteUsers(
        _ ids: [String], user: String?, messages: String?, files: Bool?, conversations: String?, calls: String?,
        newChannelOwner: String?, newCallOwner: String?
    ) throws -> UserErasure {
        try UserIDs.check(ids)
        for (value, field) in [(conversations, "conversations"), (calls, "calls"), (newChannelOwner, "new_channel_owner_id"),
            (newCallOwner, "new_call_owner_id")] where !(value ?? "").isEmpty
        {
            throw FeedsError.input("\(field) is a Chat or Video option; Feeds has no conversations or calls", field: field)
        }
        let account = try (user ?? "").isEmpty ? nil : parse(user!, Account.self, field: "user")
        var posts: Posts?
        switch messages ?? "" {
        case "": posts = nil
        case "soft", "pruning": posts = .soft
        case "hard": posts = .hard
        default: throw FeedsError.input("messages is soft, pruning or hard", field: "messages")
        }
        guard account != nil || posts != nil || files == true else {
            throw FeedsError.input("nothing to delete: set user, messages or files", field: "user")
        }
        if account == .hard { return UserErasure(userIDs: ids, posts: .hard, feedData: true, files: true, account: .hard) }
        return UserErasure(userIDs: ids, posts: posts, feedData: false, files: files ?? false, account: account)
    }

    /// DeleteFeedUserData: all of one user's Feeds data; the account stays.
    public static func feedUserData(_ id: String, hard: Bool) throws -> UserErasure {
        try UserIDs.check([id])
        return UserErasure(userIDs: [id], posts: hard ? .hard : .soft, feedData: true, files: hard, account: nil)
    }

    private static func parse<T: RawRepresentable>(_ value: String, _: T.Type, field: String) throws -> T
    where T.RawValue == String {
        guard let parsed = T(rawValue: value) else { throw FeedsError.input("\(field) is soft, pruning or hard", field: field) }
        return parsed
    }
}

/// The `user_ids` of the calls on many users at once: 1 to 100, each 1 to 255 bytes, each once.
public enum UserIDs {
    public static let limit = 100

    public static func check(_ ids: [String]) throws {
        guard (1...limit).contains(ids.count) else { throw FeedsError.input("user_ids holds 1 to \(limit) users", field: "user_ids") }
        guard Set(ids).count == ids.count else { throw FeedsError.input("user_ids names a user twice", field: "user_ids") }
        for id in ids where !(1...255).contains(id.utf8.count) {
            throw FeedsError.input("a user id is 1 to 255 bytes", field: "user_ids")
        }
    }
}
