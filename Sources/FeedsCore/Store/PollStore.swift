import Logging

/// Where polls live. `by user` nil is the server; a user may change only the polls they made
/// (403 for anyone else's, 404 for none).
public protocol PollStore: Sendable {
    /// A new poll with its options, made by `user`; 409 when `id` is taken. Returns its id.
    func createPoll(id: String?, settings: PollSettings, options: [PollOptionDraft], by user: String, logger: Logger)
        async throws -> String

    /// Replaces its settings and options: options named by id keep their votes, the others go with theirs.
    func replacePoll(_ id: String, settings: PollSettings, options: [PollOptionDraft], by user: String?, logger: Logger)
        async throws

    /// Changes its settings under the poll's lock; the settings before and after.
    func changePoll(
        _ id: String, by user: String?, _ change: @Sendable (inout PollSettings) throws -> Void, logger: Logger
    ) async throws -> (before: PollSettings, after: PollSettings)

    /// Deletes it, its options and votes, and takes it off its activities (returned).
    func deletePoll(_ id: String, by user: String?, logger: Logger) async throws -> [String]

    /// Adds an option: by its maker or the server, or by any `user` when the poll allows suggestions
    /// (the caller checked they may read it).
    func addOption(to pollID: String, _ option: PollOptionDraft, by user: String?, logger: Logger) async throws -> PollOption
    func updateOption(of pollID: String, _ option: PollOptionDraft, by user: String?, logger: Logger) async throws -> PollOption
    func deleteOption(of pollID: String, optionID: String, by user: String?, logger: Logger) async throws

    /// Casts `user`'s vote (see `VoteOutcome`): 400 when the poll is closed or takes no answers,
    /// 404 for an option it does not have.
    func castVote(on pollID: String, _ choice: VoteChoice, by user: String, logger: Logger) async throws
        -> (vote: PollVote, outcome: VoteOutcome)

    /// Takes a vote back: the voter's own, or any for the server.
    func removeVote(from pollID: String, voteID: String, by user: String?, logger: Logger) async throws -> PollVote

    /// The polls found of `ids`, each as `viewer` sees it, with the own votes of `reader`.
    func polls(_ ids: [String], viewer: Principal, reader: String?, logger: Logger) async throws -> [String: Poll]

    /// Whether `user` may read the poll: they made it, or may read an activity that carries it.
    /// Nil when there is no such poll.
    func mayRead(_ pollID: String, user: String, logger: Logger) async throws -> Bool?

    /// The activities that carry the poll (at most 100), for its events.
    func activities(carrying pollID: String, logger: Logger) async throws -> [String]

    func queryPolls(_ query: PollQuery, viewer: Principal, reader: String?, logger: Logger) async throws
        -> (polls: [Poll], next: String?)
    func queryVotes(_ query: PollVoteQuery, viewer: Principal, logger: Logger) async throws -> (votes: [PollVote], next: String?)
}
