/// UpdateActivityPartial's `set` and `unset`, applied to a stored activity.
public struct ActivityPatch: Sendable, Hashable {
    public var set: JSONObject
    public var unset: [String]

    public init(set: JSONObject, unset: [String]) {
        self.set = set
        self.unset = unset
    }

    /// Top-level fields that `set`/`unset` may touch; `custom.x` reaches into custom data.
    public static let settableFields: Set<String> = [
        "text", "type", "custom", "attachments", "visibility", "visibility_tag", "restrict_replies", "feeds", "poll_id",
        "parent_id", "mentioned_user_ids",
    ]

    /// The attachments `set` gives, as the client sent them, or nil when it gives none. They
    /// hold URLs, not keys: the caller links them and hands the result to `apply`.
    public func requestedAttachments() throws(FeedsError) -> [JSONObject]? {
        guard let value = set["attachments"] else { return nil }
        guard case .array(let items) = value else {
            throw .input("set.attachments must be an array", field: "set.attachments")
        }
        return try items.map { item throws(FeedsError) in
            guard case .object(let object) = item else {
                throw .input("set.attachments must hold objects", field: "set.attachments")
            }
            return object
        }
    }

    /// Top-level fields that `unset` may clear.
    public static let unsettableFields: Set<String> = [
        "text", "custom", "attachments", "visibility_tag", "poll_id", "parent_id", "mentioned_user_ids",
    ]

    /// The poll `set` puts on the activity, if it puts one: the caller checks it may (`Polls.attachable`).
    public func requestedPoll() throws(FeedsError) -> String? {
        guard let value = set["poll_id"] else { return nil }
        return try value.string(field: "set.poll_id", allowNull: true)
    }

    /// The text `set` gives (`.some(nil)` for null, or unset), or nil when the patch leaves the text.
    public func requestedText() throws(FeedsError) -> String?? {
        if unset.contains("text") { return .some(nil) }
        guard let value = set["text"] else { return nil }
        return .some(try value.string(field: "set.text", allowNull: true))
    }

    /// The activity `set` makes this one share, if it names one: the caller checks it may be read.
    public func requestedParent() throws(FeedsError) -> String? {
        guard let value = set["parent_id"] else { return nil }
        return try value.string(field: "set.parent_id", allowNull: true).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The checks that need no activity: something to change, and only fields that may change.
    public func check() throws(FeedsError) {
        guard !set.isEmpty || !unset.isEmpty else {
            throw .input("set or unset must name at least one field", field: "set")
        }
        for key in set.keys.sorted() where Self.customKey(key) == nil && !Self.settableFields.contains(key) {
            throw .input("\"\(key)\" cannot be set", field: "set.\(key)")
        }
        for key in unset where Self.customKey(key) == nil && !Self.unsettableFields.contains(key) {
            throw .input("\"\(key)\" cannot be unset", field: "unset")
        }
    }

    /// Applies the patch to the draft made from the stored activity, validating the result.
    /// `linked` is `requestedAttachments()` linked, when the patch sets attachments.
    public func apply(to activity: Activity, linked: [StoredAttachment]? = nil) throws(FeedsError) -> ActivityDraft {
        try check()
        var text = activity.text
        var type: String? = activity.type
        var custom = activity.custom
        var attachments = activity.attachments
        var visibility = activity.visibility.rawValue
        var visibilityTag = activity.visibilityTag
        var restrict = activity.restrictReplies
        var feeds = activity.feeds
        var pollID = activity.pollID
        var parentID = activity.parentID
        var mentions = activity.mentionedUserIDs

        // A whole `custom` first, then `custom.KEY` on top of it: the result must not depend on key order.
        let ordered = set.sorted { lhs, rhs in
            (lhs.key == "custom" ? 0 : 1, lhs.key) < (rhs.key == "custom" ? 0 : 1, rhs.key)
        }
        for (key, value) in ordered {
            if let customKey = Self.customKey(key) {
                custom[customKey] = value
                continue
            }
            switch key {
            case "text": text = try value.string(field: "set.text", allowNull: true)
            case "type": type = try value.string(field: "set.type")
            case "visibility": visibility = try value.string(field: "set.visibility") ?? visibility
            case "visibility_tag": visibilityTag = try value.string(field: "set.visibility_tag", allowNull: true)
            case "restrict_replies": restrict = try value.string(field: "set.restrict_replies") ?? restrict
            case "custom":
                guard case .object(let object) = value else { throw .input("set.custom must be an object", field: "set.custom") }
                custom = object
            case "attachments":
                guard let linked else { throw FeedsError(.internal, "set.attachments was applied without linking") }
                attachments = linked
            case "poll_id": pollID = try value.string(field: "set.poll_id", allowNull: true)
            case "parent_id": parentID = try value.string(field: "set.parent_id", allowNull: true)
            case "mentioned_user_ids":
                guard case .array(let items) = value else {
                    throw .input("set.mentioned_user_ids must be an array", field: "set.mentioned_user_ids")
                }
                mentions = try Mentions.checked(
                    try items.map { item throws(FeedsError) in
                        guard case .string(let id) = item else {
                            throw .input("set.mentioned_user_ids must hold strings", field: "set.mentioned_user_ids")
                        }
                        return id
                    }, field: "set.mentioned_user_ids")
            case "feeds":
                guard case .array(let items) = value else { throw .input("set.feeds must be an array", field: "set.feeds") }
                feeds = try items.map { item throws(FeedsError) in
                    guard case .string(let feed) = item else { throw .input("set.feeds must hold strings", field: "set.feeds") }
                    return feed
                }
            default:
                throw .input("\"\(key)\" cannot be set", field: "set.\(key)")
            }
        }
        for key in unset {
            if let customKey = Self.customKey(key) {
                custom[customKey] = nil
                continue
            }
            switch key {
            case "text": text = nil
            case "custom": custom = [:]
            case "attachments": attachments = []
            case "visibility_tag": visibilityTag = nil
            case "poll_id": pollID = nil
            case "parent_id": parentID = nil
            case "mentioned_user_ids": mentions = []
            default: throw .input("\"\(key)\" cannot be unset", field: "unset")
            }
        }
        var draft = try ActivityDraft(
            id: activity.id, type: type, userID: activity.user.id, text: text, feeds: feeds, visibility: visibility,
            visibilityTag: visibilityTag, restrictReplies: restrict, custom: custom, attachments: attachments
        )
        draft.pollID = pollID.flatMap { $0.isEmpty ? nil : $0 }
        draft.parentID = parentID.flatMap { $0.isEmpty ? nil : $0 }
        draft.mentionedUserIDs = mentions
        return draft
    }

    private static func customKey(_ key: String) -> String? {
        guard key.hasPrefix("custom."), key.count > 7 else { return nil }
        return String(key.dropFirst(7))
    }
}

extension JSONValue {
    fileprivate func string(field: String, allowNull: Bool = false) throws(FeedsError) -> String? {
        switch self {
        case .string(let value): return value
        case .null where allowNull: return nil
        default: throw .input("\(field) must be a string", field: field)
        }
    }
}
