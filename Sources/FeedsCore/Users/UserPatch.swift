import Foundation

/// One user's UpdateUsersPartial: `set` gives fields new values, `unset` takes fields away. The
/// user's own fields (`name`, `image`, `role`, `language`, `teams`) are set and unset by name;
/// any other name is a key of `custom`, as Stream keeps a user's custom data beside its fields.
public struct UserPatch: Sendable, Equatable {
    public var id: String
    public var set: JSONObject
    public var unset: [String]

    /// At most this many users a request, and this much JSON for a user's custom data.
    public static let maxUsers = 100
    public static let maxCustomBytes = 16_384
    /// Fields no patch changes.
    static let fixed: Set<String> = ["id", "created_at", "updated_at", "deactivated_at", "deleted_at", "banned", "online"]

    public init(id: String, set: JSONObject = [:], unset: [String] = []) {
        (self.id, self.set, self.unset) = (id, set, unset)
    }

    /// Whether it changes what only the server may change (a role, teams).
    public var changesPrivileges: Bool {
        ["role", "teams"].contains { set[$0] != nil || unset.contains($0) }
    }

    /// `user` with the patch applied, as the full set of fields UpdateUsers writes.
    ///
    /// - Throws: `FeedsError` (`.input`) for a field set and unset at once, a fixed field, a field
    ///   of the wrong type, or custom data past its size.
    public func applied(to user: User, field: String) throws(FeedsError) -> UserInput {
        var input = UserInput(
            id: user.id, name: user.name, image: user.image, role: user.role, language: user.language, teams: user.teams,
            custom: user.custom)
        var custom = user.custom
        for name in unset {
            guard set[name] == nil else { throw .input("\(name) is both set and unset", field: field + "unset") }
            guard !Self.fixed.contains(name) else { throw .input("\(name) cannot be unset", field: field + "unset") }
            switch name {
            case "name": input.name = nil
            case "image": input.image = nil
            case "role": input.role = "user"
            case "language": input.language = ""
            case "teams": input.teams = []
            default: custom[name] = nil
            }
        }
        for (name, value) in set.sorted(by: { $0.key < $1.key }) {
            guard !Self.fixed.contains(name) else { throw .input("\(name) cannot be set", field: field + "set") }
            switch (name, value) {
            case ("name", .string(let text)) where text.utf8.count <= 1000: input.name = text
            case ("name", .null): input.name = nil
            case ("image", .string(let text)) where text.utf8.count <= 4096: input.image = text
            case ("image", .null): input.image = nil
            case ("role", .string(let role)) where (1...255).contains(role.utf8.count): input.role = role
            case ("language", .string(let language)) where language.utf8.count <= 32: input.language = language
            case ("teams", .array(let teams)) where teams.count <= 100:
                var names: [String] = []
                for team in teams {
                    guard case .string(let name) = team, (1...255).contains(name.utf8.count) else {
                        throw .input("teams are names of 1 to 255 characters", field: field + "set.teams")
                    }
                    names.append(name)
                }
                input.teams = names
            case ("name", _), ("image", _), ("role", _), ("language", _), ("teams", _):
                throw .input("set.\(name) has the wrong type or length", field: field + "set.\(name)")
            default:
                guard (1...255).contains(name.utf8.count) else { throw .input("a custom key is 1 to 255 characters", field: field + "set") }
                custom[name] = value
            }
        }
        guard JSONValue.text(custom).utf8.count <= Self.maxCustomBytes else {
            throw .input("a user's custom data is at most \(Self.maxCustomBytes) bytes of JSON", field: field + "set")
        }
        input.custom = custom
        return input
    }
}
