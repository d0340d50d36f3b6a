import Foundation

/// Who sees who voted: everyone who may read the poll, or (anonymous) only the server; a voter
/// always sees their own votes.
public enum VotingVisibility: String, Sendable, Hashable {
    case `public`, anonymous
}

/// A poll as read: its settings, options and counts, the newest votes of each option and the
/// newest answers, and the reader's own votes.
public struct Poll: Sendable, Hashable {
    public var id: String
    public var settings: PollSettings
    public var options: [PollOption]
    /// Votes for options (answers are counted apart).
    public var voteCount: Int
    public var answersCount: Int
    public var voteCountsByOption: [String: Int]
    public var latestVotesByOption: [String: [PollVote]]
    public var latestAnswers: [PollVote]
    public var ownVotes: [PollVote]
    public var createdBy: User
    public var createdAt: Date
    public var updatedAt: Date

    /// How many of an option's votes, and of the answers, a poll shows: the newest.
    public static let latestShown = 10

    public init(
        id: String, settings: PollSettings, options: [PollOption], voteCount: Int, answersCount: Int,
        voteCountsByOption: [String: Int], latestVotesByOption: [String: [PollVote]], latestAnswers: [PollVote],
        ownVotes: [PollVote], createdBy: User, createdAt: Date, updatedAt: Date
    ) {
        (self.id, self.settings, self.options, self.voteCount, self.answersCount) = (id, settings, options, voteCount, answersCount)
        (self.voteCountsByOption, self.latestVotesByOption, self.latestAnswers, self.ownVotes) =
            (voteCountsByOption, latestVotesByOption, latestAnswers, ownVotes)
        (self.createdBy, self.createdAt, self.updatedAt) = (createdBy, createdAt, updatedAt)
    }
}

public struct PollOption: Sendable, Hashable {
    public var id: String
    public var text: String
    public var custom: JSONObject

    public init(id: String, text: String, custom: JSONObject) {
        (self.id, self.text, self.custom) = (id, text, custom)
    }
}

/// A vote for an option, or an answer in the voter's words.
public struct PollVote: Sendable, Hashable {
    public var id: String
    public var pollID: String
    /// nil for an answer.
    public var optionID: String?
    public var answerText: String?
    /// nil where the poll is anonymous to the reader.
    public var user: User?
    public var createdAt: Date
    public var updatedAt: Date

    public var isAnswer: Bool { optionID == nil }

    public init(
        id: String, pollID: String, optionID: String?, answerText: String?, user: User?, createdAt: Date, updatedAt: Date
    ) {
        (self.id, self.pollID, self.optionID, self.answerText, self.user) = (id, pollID, optionID, answerText, user)
        (self.createdAt, self.updatedAt) = (createdAt, updatedAt)
    }

    /// The vote as `reader` sees it: without its voter in an anonymous poll, unless the reader is
    /// the server or the voter.
    public func seen(by reader: Principal, in visibility: VotingVisibility) -> PollVote {
        guard visibility == .anonymous, reader != .server, reader.userID != user?.id else { return self }
        var hidden = self
        hidden.user = nil
        return hidden
    }
}

extension Poll {
    /// The poll as an event shows it to every watcher: no one's own votes, and no voters where
    /// voting is anonymous.
    public var forEveryone: Poll {
        var poll = self
        poll.ownVotes = []
        if settings.votingVisibility == .anonymous {
            poll.latestAnswers = latestAnswers.map { $0.withoutVoter }
            poll.latestVotesByOption = latestVotesByOption.mapValues { $0.map(\.withoutVoter) }
        }
        return poll
    }
}

extension PollVote {
    public var withoutVoter: PollVote {
        var vote = self
        vote.user = nil
        return vote
    }
}
