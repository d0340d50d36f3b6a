/// UpdateCommentPartial's `set` and `unset`, read into a change: `set` of `text`, `custom`,
/// `custom.KEY`, `mentioned_user_ids` and `attachments`; `unset` of `custom`, `custom.KEY`,
/// `mentioned_user_ids` and `attachments`. The `custom.KEY`s apply to the custom data as it is
/// when the comment is locked.
public struct CommentPatch: Sendable {
    /// The change, its attachments left for the caller to link.
    public var change: CommentChange
    /// The attachments `set` gives (or `[]` for `unset`), as the client sent them; nil: unchanged.
    public var attachments: [JSONObject]?

    public init(set: JSONObject, unset: [String]) throws(FeedsError) {
        for key in unset where set[key] != nil { throw .input("\(key) is both set and unset", field: "unset") }
        var text: String?, custom: JSONObject?, mentions: [String]?, attachments: [JSONObject]?
        var patch: (set: JSONObject, unset: [String]) = ([:], [])
        for (key, value) in set.sorted(by: { $0.key < $1.key }) {
            switch (key, value) {
            case ("text", .string(let given)): text = given
            case ("custom", .object(let given)): custom = given
            case ("mentioned_user_ids", .array(let ids)):
                mentions = try ids.map { id throws(FeedsError) in
                    guard case .string(let id) = id else {
                        throw .input("mentioned_user_ids are strings", field: "set.mentioned_user_ids")
                    }
                    return id
                }
            case ("attachments", .array(let given)):
                attachments = try given.map { payload throws(FeedsError) in
                    guard case .object(let payload) = payload else {
                        throw .input("attachments are objects", field: "set.attachments")
                    }
                    return payload
                }
            case (let key, _) where key.hasPrefix("custom.") && key.count > 7: patch.set[String(key.dropFirst(7))] = value
            case ("text", _), ("custom", _), ("mentioned_user_ids", _), ("attachments", _):
                throw .input("\(key) has the wrong type", field: "set.\(key)")
            default:
                throw .input(
                    "\(key) is not a field UpdateCommentPartial sets (text, custom, custom.KEY, mentioned_user_ids, attachments)",
                    field: "set.\(key)")
            }
        }
        for key in unset {
            switch key {
            case "custom": custom = [:]
            case "mentioned_user_ids": mentions = []
            case "attachments": attachments = []
            case let key where key.hasPrefix("custom.") && key.count > 7: patch.unset.append(String(key.dropFirst(7)))
            default:
                throw .input(
                    "\(key) is not a field UpdateCommentPartial unsets (custom, custom.KEY, mentioned_user_ids, attachments)",
                    field: "unset")
            }
        }
        change = try CommentChange(text: text, custom: custom, mentionedUserIDs: mentions, attachments: nil)
        if !patch.set.isEmpty || !patch.unset.isEmpty {
            guard custom == nil else { throw .input("set custom whole or by custom.KEY, not both", field: "set.custom") }
            change.customPatch = patch
        }
        self.attachments = attachments
    }
}
