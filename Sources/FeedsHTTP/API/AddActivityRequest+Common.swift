import FeedsAPI
import FeedsCore
import FeedsWire

extension Components.Schemas.AddActivityRequest {
    /// The fields most creates are made of.
    static let commonKeys: Set<String> = [
        "type", "feeds", "text", "user_id", "id", "visibility", "visibility_tag", "restrict_replies", "custom",
    ]

    /// The request read from an already parsed body when it holds only `commonKeys`, each of the
    /// JSON type the generated decoder expects; nil for anything else, which the generated
    /// decoder then reads (and, when something is wrong, names it as it always has). It spares the
    /// common create Foundation's JSONDecoder through the generated types.
    init?(common json: JSONValue) throws {
        guard case .object(let fields) = json, fields.keys.allSatisfy(Self.commonKeys.contains),
            case .string(let type)? = fields["type"], case .array(let feedValues)? = fields["feeds"]
        else { return nil }
        var feeds: [String] = []
        feeds.reserveCapacity(feedValues.count)
        for value in feedValues {
            guard case .string(let feed) = value else { return nil }
            feeds.append(feed)
        }
        // JSONDecoder reads an absent optional and a null one alike.
        func optional<Value>(_ key: String, _ read: (JSONValue) -> Value?) -> Value?? {
            guard let value = fields[key], value != .null else { return .some(nil) }
            return read(value).map { .some($0) } ?? nil
        }
        let string = { (value: JSONValue) -> String? in if case .string(let text) = value { text } else { nil } }
        guard let text = optional("text", string), let userID = optional("user_id", string),
            let id = optional("id", string), let visibilityTag = optional("visibility_tag", string),
            let visibility = optional("visibility", { string($0).flatMap(VisibilityPayload.init(rawValue:)) }),
            let restrictReplies = optional(
                "restrict_replies", { string($0).flatMap(RestrictRepliesPayload.init(rawValue:)) }),
            let custom = optional(
                "custom", { value -> JSONObject? in if case .object(let object) = value { object } else { nil } })
        else { return nil }
        self.init(
            custom: try custom.map { CustomPayload(additionalProperties: try FreeForm.containers($0)) }, feeds: feeds,
            id: id, restrictReplies: restrictReplies, text: text, _type: type, userId: userID, visibility: visibility,
            visibilityTag: visibilityTag)
    }
}
