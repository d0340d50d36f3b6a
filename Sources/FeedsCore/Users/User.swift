import Foundation

/// A user as stored: created on first use by an activity, or upserted by UpdateUsers.
public struct User: Sendable, Hashable {
    public var id: String
    public var name: String?
    public var image: String?
    public var role: String
    public var language: String
    public var teams: [String]
    public var custom: JSONObject
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, name: String? = nil, image: String? = nil, role: String = "user", language: String = "",
        teams: [String] = [], custom: JSONObject = [:], createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.name = name
        self.image = image
        self.role = role
        self.language = language
        self.teams = teams
        self.custom = custom
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// The fields UpdateUsers sets on a user (a full replace of these fields).
public struct UserInput: Sendable, Hashable {
    public var id: String
    public var name: String?
    public var image: String?
    public var role: String?
    public var language: String?
    public var teams: [String]?
    public var custom: JSONObject?

    public init(
        id: String, name: String? = nil, image: String? = nil, role: String? = nil, language: String? = nil,
        teams: [String]? = nil, custom: JSONObject? = nil
    ) {
        self.id = id
        self.name = name
        self.image = image
        self.role = role
        self.language = language
        self.teams = teams
        self.custom = custom
    }
}
