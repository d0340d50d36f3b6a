import Foundation

/// An option as CreatePoll, UpdatePoll and CreatePollOption send it, checked. `id` names an
/// existing option in UpdatePoll and UpdatePollOption; a new option gets a UUID.
public struct PollOptionDraft: Sendable, Hashable {
    public var id: String?
    public var text: String
    public var custom: JSONObject

    public static let maxText = 255
    /// Options a poll may have.
    public static let maxOptions = 100

    public init(id: String? = nil, text: String, custom: JSONObject = [:], field: String = "") throws(FeedsError) {
        if let id, !(1...255).contains(id.utf8.count) { throw .input("an option's id is 1 to 255 bytes", field: field + "id") }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, text.count <= Self.maxText else {
            throw .input("an option's text is 1 to \(Self.maxText) characters", field: field + "text")
        }
        guard JSONValue.text(custom).utf8.count <= PollSettings.maxCustomBytes else {
            throw .input("custom is at most \(PollSettings.maxCustomBytes) bytes of JSON", field: field + "custom")
        }
        (self.id, self.text, self.custom) = (id, text, custom)
    }

    /// A poll's options, checked together: at most `maxOptions`, no text or id twice.
    public static func checked(_ options: [PollOptionDraft], field: String = "options") throws(FeedsError) -> [PollOptionDraft] {
        guard options.count <= maxOptions else { throw .input("a poll has at most \(maxOptions) options", field: field) }
        var texts = Set<String>(), ids = Set<String>()
        for option in options {
            guard texts.insert(option.text).inserted else { throw .input("option \"\(option.text)\" is there twice", field: field) }
            if let id = option.id, !ids.insert(id).inserted { throw .input("option id \(id) is there twice", field: field) }
        }
        return options
    }
}

/// What CastPollVote asks for: a vote for an option, or an answer in the voter's words.
public enum VoteChoice: Sendable, Hashable {
    case option(String)
    case answer(String)

    public static let maxAnswer = 1_000

    public init(optionID: String?, answerText: String?) throws(FeedsError) {
        switch (optionID, answerText) {
        case (let id?, nil):
            guard (1...255).contains(id.utf8.count) else { throw .input("option_id is 1 to 255 bytes", field: "vote.option_id") }
            self = .option(id)
        case (nil, let text?):
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, text.count <= Self.maxAnswer else {
                throw .input("answer_text is 1 to \(Self.maxAnswer) characters", field: "vote.answer_text")
            }
            self = .answer(text)
        case (nil, nil): throw .input("a vote names option_id or answer_text", field: "vote")
        case (.some, .some): throw .input("a vote names option_id or answer_text, not both", field: "vote")
        }
    }
}

/// What a vote did: cast a new vote, moved one the voter had (`vote_changed`: the unique vote,
/// the oldest past `max_votes_allowed`, or a new answer in place of the old), or nothing (the same
/// vote again).
public enum VoteOutcome: Sendable, Hashable {
    case cast, changed, unchanged
}
