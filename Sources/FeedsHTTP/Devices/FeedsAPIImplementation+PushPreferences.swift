import FeedsAPI
import FeedsCore
import FeedsWire
import Foundation

/// UpdatePushNotificationPreferences: a user sets their own Feeds push settings, the server
/// anyone's (`user_id`). What is not given stays as it was. Chat's and Video's settings
/// (`chat_level`, `call_level`, `channel_cid`, `chat_preferences`) are refused, not ignored.
extension FeedsAPIImplementation {
    func updatePushNotificationPreferences(_ input: Operations.UpdatePushNotificationPreferences.Input) async throws
        -> Operations.UpdatePushNotificationPreferences.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        guard (1...100).contains(body.preferences.count) else {
            throw FeedsError.input("preferences holds 1 to 100 entries", field: "preferences")
        }
        let users = try body.preferences.enumerated().map { index, entry in
            try Self.pushUser(entry.userId, principal: request.principal, field: "preferences[\(index)].user_id")
        }
        var preferences = try await store.pushPreferences(of: Array(Set(users)), logger: request.logger)
        for (index, entry) in body.preferences.enumerated() {
            try Self.apply(entry, to: &preferences[users[index], default: PushPreferences()], field: "preferences[\(index)]")
        }
        try await store.setPushPreferences(preferences, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        duration: request.duration, userChannelPreferences: .init(),
                        userPreferences: .init(additionalProperties: preferences.mapValues(Self.wire))))))
    }

    /// Whose settings an entry changes: the caller's own, or for the server the `user_id` named.
    private static func pushUser(_ named: String?, principal: Principal, field: String) throws -> String {
        switch principal {
        case .server:
            guard let named, (1...255).contains(named.utf8.count) else {
                throw FeedsError.input("user_id names whose settings these are (1 to 255 bytes)", field: field)
            }
            return named
        case .user(let me):
            guard named == nil || named == me else { throw FeedsError.notAllowed("a user sets only their own push settings") }
            return me
        }
    }

    private static func apply(_ entry: Components.Schemas.PushPreferenceInput, to preferences: inout PushPreferences, field: String)
        throws
    {
        for (value, name) in [(entry.chatLevel, "chat_level"), (entry.callLevel, "call_level"), (entry.channelCid, "channel_cid")]
        where !(value ?? "").isEmpty {
            throw FeedsError.input("\(name) is a Chat or Video setting; Feeds has feeds_level and feeds_preferences", field: "\(field).\(name)")
        }
        if entry.chatPreferences != nil {
            throw FeedsError.input("chat_preferences is a Chat setting", field: "\(field).chat_preferences")
        }
        if let level = entry.feedsLevel {
            preferences.level = try Self.level(level == "default" ? "all" : level, field: "\(field).feeds_level")
        }
        if let types = entry.feedsPreferences {
            let given: [(String, String?)] = [
                ("follow", types.follow), ("comment", types.comment), ("comment_reply", types.commentReply),
                ("comment_reaction", types.commentReaction), ("comment_mention", types.commentMention),
                ("reaction", types.reaction), ("mention", types.mention),
            ]
            for case let (type, value?) in given {
                preferences.types[type] = try Self.level(value, field: "\(field).feeds_preferences.\(type)")
            }
            if let custom = types.customActivityTypes?.additionalProperties {
                for (type, value) in custom {
                    guard (1...255).contains(type.utf8.count) else {
                        throw FeedsError.input("an activity type is 1 to 255 bytes", field: "\(field).feeds_preferences.custom_activity_types")
                    }
                    preferences.customActivityTypes[type] = try Self.level(
                        value, field: "\(field).feeds_preferences.custom_activity_types")
                }
                guard preferences.customActivityTypes.count <= PushPreferences.maxCustomTypes else {
                    throw FeedsError.input(
                        "at most \(PushPreferences.maxCustomTypes) custom activity types",
                        field: "\(field).feeds_preferences.custom_activity_types")
                }
            }
        }
        if let until = try Wire.date(entry.disabledUntil, field: "\(field).disabled_until") { preferences.disabledUntil = until }
        if entry.removeDisable == true { preferences.disabledUntil = nil }
    }

    private static func level(_ value: String, field: String) throws -> PushPreferences.Level {
        guard let level = PushPreferences.Level(rawValue: value) else { throw FeedsError.input("\(field) is all or none", field: field) }
        return level
    }

    private static func wire(_ preferences: PushPreferences) -> Components.Schemas.PushPreferencesResponse {
        let types = preferences.types.mapValues(\.rawValue)
        return .init(
            disabledUntil: preferences.disabledUntil.map(WireTime.nanoseconds), feedsLevel: preferences.level.rawValue,
            feedsPreferences: .init(
                comment: types["comment"] ?? "all", commentMention: types["comment_mention"] ?? "all",
                commentReaction: types["comment_reaction"] ?? "all", commentReply: types["comment_reply"] ?? "all",
                customActivityTypes: .init(additionalProperties: preferences.customActivityTypes.mapValues(\.rawValue)),
                follow: types["follow"] ?? "all", mention: types["mention"] ?? "all", reaction: types["reaction"] ?? "all"))
    }
}
