import Foundation

/// What a poll's creator sets, checked: what CreatePoll and UpdatePoll send whole, and
/// UpdatePollPartial changes a field at a time.
public struct PollSettings: Sendable, Hashable {
    public var name: String
    public var description: String
    public var votingVisibility: VotingVisibility
    public var enforceUniqueVote: Bool
    /// At most this many options a voter (1…10); nil: as many as there are.
    public var maxVotesAllowed: Int?
    public var allowUserSuggestedOptions: Bool
    public var allowAnswers: Bool
    public var isClosed: Bool
    public var custom: JSONObject

    public static let maxName = 255
    public static let maxDescription = 2_000
    public static let maxVotes = 10
    public static let maxCustomBytes = 16_384

    public init(
        name: String, description: String = "", votingVisibility: VotingVisibility = .public, enforceUniqueVote: Bool = false,
        maxVotesAllowed: Int? = nil, allowUserSuggestedOptions: Bool = false, allowAnswers: Bool = false,
        isClosed: Bool = false, custom: JSONObject = [:]
    ) {
        (self.name, self.description, self.votingVisibility, self.enforceUniqueVote) =
            (name, description, votingVisibility, enforceUniqueVote)
        (self.maxVotesAllowed, self.allowUserSuggestedOptions, self.allowAnswers, self.isClosed, self.custom) =
            (maxVotesAllowed, allowUserSuggestedOptions, allowAnswers, isClosed, custom)
    }

    /// The settings, or the first field that is wrong.
    public func checked() throws(FeedsError) -> PollSettings {
        guard !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, name.count <= Self.maxName else {
            throw .input("name is 1 to \(Self.maxName) characters", field: "name")
        }
        guard description.count <= Self.maxDescription else {
            throw .input("description is at most \(Self.maxDescription) characters", field: "description")
        }
        if let max = maxVotesAllowed, !(1...Self.maxVotes).contains(max) {
            throw .input("max_votes_allowed is 1 to \(Self.maxVotes)", field: "max_votes_allowed")
        }
        guard JSONValue.text(custom).utf8.count <= Self.maxCustomBytes else {
            throw .input("custom is at most \(Self.maxCustomBytes) bytes of JSON", field: "custom")
        }
        return self
    }

    /// The votes one voter may have for options.
    public var votesPerVoter: Int { enforceUniqueVote ? 1 : (maxVotesAllowed ?? Int.max) }

    /// UpdatePollPartial: `set` fields, then `unset` ones back to their defaults.
    public mutating func apply(set: JSONObject, unset: [String]) throws(FeedsError) {
        for (name, value) in set.sorted(by: { $0.key < $1.key }) {
            let field = "set.\(name)"
            switch (name, value) {
            case ("name", .string(let text)): self.name = text
            case ("description", .string(let text)): description = text
            case ("voting_visibility", .string(let text)):
                guard let visibility = VotingVisibility(rawValue: text) else {
                    throw .input("voting_visibility is public or anonymous", field: field)
                }
                votingVisibility = visibility
            case ("enforce_unique_vote", .bool(let on)): enforceUniqueVote = on
            case ("max_votes_allowed", .number(let number)):
                guard number.rounded() == number, abs(number) < 1e6 else {
                    throw .input("max_votes_allowed is a whole number", field: field)
                }
                maxVotesAllowed = Int(number)
            case ("max_votes_allowed", .null): maxVotesAllowed = nil
            case ("allow_user_suggested_options", .bool(let on)): allowUserSuggestedOptions = on
            case ("allow_answers", .bool(let on)): allowAnswers = on
            case ("is_closed", .bool(let on)): isClosed = on
            case ("custom", .object(let object)): custom = object
            case ("name", _), ("description", _), ("voting_visibility", _), ("enforce_unique_vote", _), ("max_votes_allowed", _),
                ("allow_user_suggested_options", _), ("allow_answers", _), ("is_closed", _), ("custom", _):
                throw .input("\(name) has the wrong type", field: field)
            default: throw .input("\(name) is not a field of a poll that can be set", field: field)
            }
        }
        for name in unset {
            switch name {
            case "description": description = ""
            case "max_votes_allowed": maxVotesAllowed = nil
            case "custom": custom = [:]
            case "voting_visibility": votingVisibility = .public
            case "enforce_unique_vote": enforceUniqueVote = false
            case "allow_user_suggested_options": allowUserSuggestedOptions = false
            case "allow_answers": allowAnswers = false
            case "is_closed": isClosed = false
            default: throw .input("\(name) is not a field of a poll that can be unset", field: "unset")
            }
        }
        self = try checked()
    }
}
