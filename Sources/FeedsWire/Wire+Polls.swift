import FeedsAPI
import FeedsCore
import Foundation

extension Wire {
    package static func poll(_ poll: Poll) throws -> Components.Schemas.PollResponseData {
        let settings = poll.settings
        return Components.Schemas.PollResponseData(
            allowAnswers: settings.allowAnswers,
            allowUserSuggestedOptions: settings.allowUserSuggestedOptions,
            answersCount: Int32(clamping: poll.answersCount),
            createdAt: WireTime.nanoseconds(poll.createdAt),
            createdBy: try user(poll.createdBy),
            createdById: poll.createdBy.id,
            custom: .init(additionalProperties: try FreeForm.containers(settings.custom)),
            description: settings.description,
            enforceUniqueVote: settings.enforceUniqueVote,
            id: poll.id,
            isClosed: settings.isClosed,
            latestAnswers: try poll.latestAnswers.map(pollVote),
            latestVotesByOption: .init(additionalProperties: try poll.latestVotesByOption.mapValues { try $0.map(pollVote) }),
            maxVotesAllowed: settings.maxVotesAllowed.map { Int32($0) },
            name: settings.name,
            options: try poll.options.map(pollOption),
            ownVotes: try poll.ownVotes.map(pollVote),
            updatedAt: WireTime.nanoseconds(poll.updatedAt),
            voteCount: Int32(clamping: poll.voteCount),
            voteCountsByOption: .init(additionalProperties: poll.voteCountsByOption.mapValues { Int32(clamping: $0) }),
            votingVisibility: settings.votingVisibility.rawValue)
    }

    /// A vote; an answer has no option (`option_id` ""), an anonymous vote no voter.
    package static func pollVote(_ vote: PollVote) throws -> Components.Schemas.PollVoteResponseData {
        Components.Schemas.PollVoteResponseData(
            answerText: vote.answerText, createdAt: WireTime.nanoseconds(vote.createdAt), id: vote.id, isAnswer: vote.isAnswer,
            optionId: vote.optionID ?? "", pollId: vote.pollID, updatedAt: WireTime.nanoseconds(vote.updatedAt),
            user: try vote.user.map(user), userId: vote.user?.id)
    }

    package static func pollOption(_ option: PollOption) throws -> Components.Schemas.PollOptionResponseData {
        Components.Schemas.PollOptionResponseData(
            custom: .init(additionalProperties: try FreeForm.containers(option.custom)), id: option.id, text: option.text)
    }

    /// A poll as its generated type encodes, for the hand-written activity JSON.
    package static func encoded(_ poll: Poll) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array(try encoder.encode(try self.poll(poll)))
    }

    package static func encoded(_ vote: PollVote) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array(try encoder.encode(try pollVote(vote)))
    }
}
