import FeedsAPI
import FeedsCore
import FeedsWire
import OpenAPIRuntime

/// The poll operations: the wire checked and translated; the workflow is the `Polls` service's.
/// A user acts as themselves; the server names the user (`user_id`, or `user.id`) where one acts.
extension FeedsAPIImplementation {
    func createPoll(_ input: Operations.CreatePoll.Input) async throws -> Operations.CreatePoll.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let user = try request.actingUser(body.userId ?? body.user?.id)
        let settings = try Self.settings(
            name: body.name, description: body.description, visibility: body.votingVisibility?.rawValue,
            unique: body.enforceUniqueVote, maxVotes: body.maxVotesAllowed, suggestions: body.allowUserSuggestedOptions,
            answers: body.allowAnswers, closed: body.isClosed, custom: body.custom?.additionalProperties)
        let options = try PollOptionDraft.checked(
            try (body.options ?? []).enumerated().map { index, option in
                try PollOptionDraft(
                    text: option.text ?? "", custom: try Self.pollCustom(option.custom?.additionalProperties), field: "options[\(index)].")
            })
        if let id = body.id, !(1...255).contains(id.utf8.count) { throw FeedsError.input("id is 1 to 255 bytes", field: "id") }
        let poll = try await polls.create(
            id: body.id, settings: settings, options: options, by: user, viewer: .user(user), logger: request.logger)
        return .created(.init(body: .json(.init(duration: request.duration, poll: try Wire.poll(poll)))))
    }

    func updatePoll(_ input: Operations.UpdatePoll.Input) async throws -> Operations.UpdatePoll.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let reader = try request.principal.actingUser(requested: body.userId ?? body.user?.id)
        let settings = try Self.settings(
            name: body.name, description: body.description, visibility: body.votingVisibility?.rawValue,
            unique: body.enforceUniqueVote, maxVotes: body.maxVotesAllowed, suggestions: body.allowUserSuggestedOptions,
            answers: body.allowAnswers, closed: body.isClosed, custom: body.custom?.additionalProperties)
        let options = try PollOptionDraft.checked(
            try (body.options ?? []).enumerated().map { index, option in
                try PollOptionDraft(
                    id: option.id, text: option.text ?? "", custom: try Self.pollCustom(option.custom?.additionalProperties),
                    field: "options[\(index)].")
            })
        let poll = try await polls.replace(
            body.id, settings: settings, options: options, by: request.principal, reader: reader, logger: request.logger)
        return .created(.init(body: .json(.init(duration: request.duration, poll: try Wire.poll(poll)))))
    }

    func updatePollPartial(_ input: Operations.UpdatePollPartial.Input) async throws -> Operations.UpdatePollPartial.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let reader = try request.principal.actingUser(requested: body.userId ?? body.user?.id)
        let unset = body.unset ?? []
        guard unset.count <= 20 else { throw FeedsError.input("unset names at most 20 fields", field: "unset") }
        let poll = try await polls.change(
            try Self.pollID(input.path.pollId), set: try Self.pollCustom(body.set?.additionalProperties), unset: unset,
            by: request.principal, reader: reader, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, poll: try Wire.poll(poll)))))
    }

    func getPoll(_ input: Operations.GetPoll.Input) async throws -> Operations.GetPoll.Output {
        let request = try request
        let viewer = try request.viewer(named: input.query.userId)
        let poll = try await polls.poll(
            try Self.pollID(input.path.pollId), viewer: request.principal, reader: viewer.userID, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, poll: try Wire.poll(poll)))))
    }

    func deletePoll(_ input: Operations.DeletePoll.Input) async throws -> Operations.DeletePoll.Output {
        let request = try request
        _ = try request.principal.actingUser(requested: input.query.userId)
        try await polls.delete(try Self.pollID(input.path.pollId), by: request.principal, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    func queryPolls(_ input: Operations.QueryPolls.Input) async throws -> Operations.QueryPolls.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let viewer = try request.viewer(named: input.query.userId)
        let query = try PollQuery(
            filter: try body.filter.map { try FreeForm.object($0.additionalProperties) },
            sort: (body.sort ?? []).map { ($0.field, $0.direction.map(Int.init)) }, limit: body.limit.map(Int.init),
            next: body.next, prev: body.prev)
        let (found, next) = try await pollStore.queryPolls(
            query, viewer: request.principal, reader: viewer.userID, logger: request.logger)
        return .created(.init(body: .json(.init(duration: request.duration, next: next, polls: try found.map(Wire.poll)))))
    }

    func createPollOption(_ input: Operations.CreatePollOption.Input) async throws -> Operations.CreatePollOption.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        _ = try request.principal.actingUser(requested: body.userId ?? body.user?.id)
        let option = try PollOptionDraft(text: body.text, custom: try Self.pollCustom(body.custom?.additionalProperties))
        let added = try await polls.addOption(
            to: try Self.pollID(input.path.pollId), option, by: request.principal, logger: request.logger)
        return .created(.init(body: .json(.init(duration: request.duration, pollOption: try Wire.pollOption(added)))))
    }

    func updatePollOption(_ input: Operations.UpdatePollOption.Input) async throws -> Operations.UpdatePollOption.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        _ = try request.principal.actingUser(requested: body.userId ?? body.user?.id)
        let option = try PollOptionDraft(id: body.id, text: body.text, custom: try Self.pollCustom(body.custom?.additionalProperties))
        let updated = try await polls.updateOption(
            of: try Self.pollID(input.path.pollId), option, by: request.principal, logger: request.logger)
        return .created(.init(body: .json(.init(duration: request.duration, pollOption: try Wire.pollOption(updated)))))
    }

    func getPollOption(_ input: Operations.GetPollOption.Input) async throws -> Operations.GetPollOption.Output {
        let request = try request
        let option = try await polls.option(
            input.path.optionId, of: try Self.pollID(input.path.pollId), viewer: request.principal, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, pollOption: try Wire.pollOption(option)))))
    }

    func deletePollOption(_ input: Operations.DeletePollOption.Input) async throws -> Operations.DeletePollOption.Output {
        let request = try request
        _ = try request.principal.actingUser(requested: input.query.userId)
        try await polls.deleteOption(
            of: try Self.pollID(input.path.pollId), optionID: input.path.optionId, by: request.principal, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    func queryPollVotes(_ input: Operations.QueryPollVotes.Input) async throws -> Operations.QueryPollVotes.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        _ = try request.principal.actingUser(requested: input.query.userId)
        let query = try PollVoteQuery(
            pollID: try Self.pollID(input.path.pollId), filter: try body.filter.map { try FreeForm.object($0.additionalProperties) },
            sort: (body.sort ?? []).map { ($0.field, $0.direction.map(Int.init)) }, limit: body.limit.map(Int.init),
            next: body.next, prev: body.prev)
        let (votes, next) = try await polls.votes(query, viewer: request.principal, logger: request.logger)
        return .created(.init(body: .json(.init(duration: request.duration, next: next, votes: try votes.map(Wire.pollVote)))))
    }

    func castPollVote(_ input: Operations.CastPollVote.Input) async throws -> Operations.CastPollVote.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let user = try request.actingUser(body.userId ?? body.user?.id)
        let choice = try VoteChoice(optionID: body.vote?.optionId, answerText: body.vote?.answerText)
        let (poll, vote) = try await polls.vote(
            on: input.path.id, poll: try Self.pollID(input.path.pollId), choice, by: user, principal: .user(user),
            logger: request.logger)
        return .created(.init(body: .json(.init(duration: request.duration, poll: try Wire.poll(poll), vote: try Wire.pollVote(vote)))))
    }

    func deletePollVote(_ input: Operations.DeletePollVote.Input) async throws -> Operations.DeletePollVote.Output {
        let request = try request
        let reader = try request.principal.actingUser(requested: input.query.userId)
        let (poll, vote) = try await polls.removeVote(
            on: input.path.id, poll: try Self.pollID(input.path.pollId), voteID: input.path.voteId, principal: request.principal,
            reader: reader, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, poll: try Wire.poll(poll), vote: try Wire.pollVote(vote)))))
    }

    private static func pollID(_ id: String) throws(FeedsError) -> String {
        guard (1...255).contains(id.utf8.count) else { throw .input("poll_id is 1 to 255 bytes", field: "poll_id") }
        return id
    }

    /// CreatePoll's and UpdatePoll's settings, checked; what is left out takes its default.
    private static func settings(
        name: String, description: String?, visibility: String?, unique: Bool?, maxVotes: Int32?, suggestions: Bool?,
        answers: Bool?, closed: Bool?, custom: [String: OpenAPIValueContainer]?
    ) throws -> PollSettings {
        var votingVisibility = VotingVisibility.public
        if let visibility {
            guard let known = VotingVisibility(rawValue: visibility) else {
                throw FeedsError.input("voting_visibility is public or anonymous", field: "voting_visibility")
            }
            votingVisibility = known
        }
        return try PollSettings(
            name: name, description: description ?? "", votingVisibility: votingVisibility, enforceUniqueVote: unique ?? false,
            maxVotesAllowed: maxVotes.map(Int.init), allowUserSuggestedOptions: suggestions ?? false, allowAnswers: answers ?? false,
            isClosed: closed ?? false, custom: try pollCustom(custom)
        ).checked()
    }

    private static func pollCustom(_ containers: [String: OpenAPIValueContainer]?) throws -> JSONObject {
        try FreeForm.object(containers ?? [:])
    }
}
