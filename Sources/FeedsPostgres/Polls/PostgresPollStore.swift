import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// Polls in PostgreSQL (migration 0026). Every change to a poll, its options or its votes runs
/// with the poll's row locked (`locked`), so its counts are exact however many vote at once.
public struct PostgresPollStore: PollStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func createPoll(id: String?, settings: PollSettings, options: [PollOptionDraft], by user: String, logger: Logger)
        async throws -> String
    {
        let id = id ?? UUID().lowercasedString
        do {
            try await client.transaction(logger: logger) { connection in
                try await connection.query("INSERT INTO users (id) VALUES (\(user)) ON CONFLICT (id) DO NOTHING", logger: logger)
                try await connection.query(
                    """
                    INSERT INTO polls (id, name, description, voting_visibility, enforce_unique_vote, max_votes_allowed,
                        allow_user_suggested_options, allow_answers, is_closed, custom, created_by)
                    VALUES (\(id), \(settings.name), \(settings.description), \(settings.votingVisibility.rawValue),
                        \(settings.enforceUniqueVote), \(settings.maxVotesAllowed), \(settings.allowUserSuggestedOptions),
                        \(settings.allowAnswers), \(settings.isClosed), \(JSONText.encode(settings.custom))::jsonb, \(user))
                    """, logger: logger)
                try await Self.insert(options, into: id, on: connection, logger: logger)
            }
        } catch let error as PSQLError where error.isUniqueViolation(of: "polls_pkey") {
            throw FeedsError.conflict("a poll with id \(id) exists", field: "id")
        }
        return id
    }

    public func replacePoll(_ id: String, settings: PollSettings, options: [PollOptionDraft], by user: String?, logger: Logger)
        async throws
    {
        try await client.transaction(logger: logger) { connection in
            _ = try await Self.locked(id, owner: user, on: connection, logger: logger)
            try await Self.write(settings, to: id, on: connection, logger: logger)
            let kept = options.compactMap(\.id)
            try await connection.query(
                "DELETE FROM poll_options WHERE poll_id = \(id) AND NOT (id = ANY(\(kept)))", logger: logger)
            var order: [String] = []
            for option in options {
                if let optionID = option.id {
                    let rows = try await connection.query(
                        """
                        UPDATE poll_options SET text = \(option.text), custom = \(JSONText.encode(option.custom))::jsonb
                        WHERE poll_id = \(id) AND id = \(optionID) RETURNING id
                        """, logger: logger)
                    var kept: String?
                    for try await found in rows.decode(String.self) { kept = found }
                    if let kept {
                        order.append(kept)
                        continue
                    }
                }
                // A new option (an id the poll does not have yet is the new option's).
                order.append(try await Self.insert([option], into: id, on: connection, logger: logger)[0].id)
            }
            try await connection.query(
                """
                UPDATE poll_options o SET position = x.n - 1 FROM unnest(\(order)::text[]) WITH ORDINALITY AS x(id, n)
                WHERE o.poll_id = \(id) AND o.id = x.id
                """, logger: logger)
            try await connection.query("UPDATE polls SET option_count = \(order.count) WHERE id = \(id)", logger: logger)
            try await Self.recount(id, on: connection, logger: logger)
        }
    }

    public func changePoll(
        _ id: String, by user: String?, _ change: @Sendable (inout PollSettings) throws -> Void, logger: Logger
    ) async throws -> (before: PollSettings, after: PollSettings) {
        try await client.transaction(logger: logger) { connection in
            let before = try await Self.locked(id, owner: user, on: connection, logger: logger).settings
            var after = before
            try change(&after)
            try await Self.write(after, to: id, on: connection, logger: logger)
            return (before, after)
        }
    }

    public func deletePoll(_ id: String, by user: String?, logger: Logger) async throws -> [String] {
        try await client.transaction(logger: logger) { connection in
            _ = try await Self.locked(id, owner: user, on: connection, logger: logger)
            let rows = try await connection.query("SELECT id FROM activities WHERE poll_id = \(id) ORDER BY id", logger: logger)
            var activities: [String] = []
            for try await activity in rows.decode(String.self) { activities.append(activity) }
            try await connection.query("DELETE FROM polls WHERE id = \(id)", logger: logger)
            return activities
        }
    }

    public func addOption(to pollID: String, _ option: PollOptionDraft, by user: String?, logger: Logger) async throws -> PollOption {
        try await client.transaction(logger: logger) { connection in
            let poll = try await Self.locked(pollID, owner: nil, on: connection, logger: logger)
            if let user, user != poll.creator, !poll.settings.allowUserSuggestedOptions {
                throw FeedsError.notAllowed("only the poll's maker adds options to poll \(pollID): it takes no suggestions")
            }
            let rows = try await connection.query("SELECT count(*)::int FROM poll_options WHERE poll_id = \(pollID)", logger: logger)
            for try await count in rows.decode(Int.self) where count >= PollOptionDraft.maxOptions {
                throw FeedsError.input("a poll has at most \(PollOptionDraft.maxOptions) options", field: "text")
            }
            try await Self.refuseTaken(option, in: pollID, on: connection, logger: logger)
            return try await Self.insert([option], into: pollID, on: connection, logger: logger)[0]
        }
    }

    public func updateOption(of pollID: String, _ option: PollOptionDraft, by user: String?, logger: Logger) async throws
        -> PollOption
    {
        try await client.transaction(logger: logger) { connection in
            _ = try await Self.locked(pollID, owner: user, on: connection, logger: logger)
            try await Self.refuseTaken(option, in: pollID, on: connection, logger: logger)
            let rows = try await connection.query(
                """
                UPDATE poll_options SET text = \(option.text), custom = \(JSONText.encode(option.custom))::jsonb
                WHERE poll_id = \(pollID) AND id = \(option.id ?? "") RETURNING id
                """, logger: logger)
            for try await id in rows.decode(String.self) { return PollOption(id: id, text: option.text, custom: option.custom) }
            throw FeedsError.notFound("poll \(pollID) has no option \(option.id ?? "")")
        }
    }

    public func deleteOption(of pollID: String, optionID: String, by user: String?, logger: Logger) async throws {
        try await client.transaction(logger: logger) { connection in
            _ = try await Self.locked(pollID, owner: user, on: connection, logger: logger)
            let rows = try await connection.query(
                "DELETE FROM poll_options WHERE poll_id = \(pollID) AND id = \(optionID) RETURNING vote_count", logger: logger)
            var found = false
            for try await votes in rows.decode(Int.self) {
                found = true
                try await connection.query(
                    "UPDATE polls SET vote_count = vote_count - \(votes) WHERE id = \(pollID)", logger: logger)
            }
            guard found else { throw FeedsError.notFound("poll \(pollID) has no option \(optionID)") }
        }
    }

    /// The poll's settings and maker, its row locked until the transaction ends; 404 when there is
    /// none, 403 when `owner` is given and did not make it.
    static func locked(_ id: String, owner: String?, on connection: PostgresConnection, logger: Logger) async throws
        -> (settings: PollSettings, creator: String)
    {
        let rows = try await connection.query(lockSQL(id), logger: logger)
        for try await row in rows {
            var columns = RowReader(row)
            let settings = try Self.settings(&columns)
            let creator: String = try columns.next()
            if let owner, owner != creator { throw FeedsError.notAllowed("\(owner) may change only the polls they made") }
            return (settings, creator)
        }
        throw FeedsError.notFound("poll \(id) does not exist")
    }

    /// The poll's settings and maker, its row locked.
    static func lockSQL(_ id: String) -> PostgresQuery {
        """
        SELECT name, description, voting_visibility, enforce_unique_vote, max_votes_allowed, allow_user_suggested_options,
            allow_answers, is_closed, custom::text, created_by
        FROM polls WHERE id = \(id) FOR UPDATE
        """
    }

    /// A poll's settings from the next nine columns, in the order `locked` selects them.
    static func settings(_ columns: inout RowReader) throws -> PollSettings {
        let name: String = try columns.next(), description: String = try columns.next()
        let visibility: String = try columns.next(), unique: Bool = try columns.next(), maxVotes: Int? = try columns.next()
        let suggestions: Bool = try columns.next(), answers: Bool = try columns.next(), closed: Bool = try columns.next()
        return PollSettings(
            name: name, description: description, votingVisibility: VotingVisibility(rawValue: visibility) ?? .public,
            enforceUniqueVote: unique, maxVotesAllowed: maxVotes, allowUserSuggestedOptions: suggestions, allowAnswers: answers,
            isClosed: closed, custom: try JSONText.object(try columns.next()))
    }

    private static func write(_ settings: PollSettings, to id: String, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.query(
            """
            UPDATE polls SET name = \(settings.name), description = \(settings.description),
                voting_visibility = \(settings.votingVisibility.rawValue), enforce_unique_vote = \(settings.enforceUniqueVote),
                max_votes_allowed = \(settings.maxVotesAllowed), allow_user_suggested_options = \(settings.allowUserSuggestedOptions),
                allow_answers = \(settings.allowAnswers), is_closed = \(settings.isClosed),
                custom = \(JSONText.encode(settings.custom))::jsonb, updated_at = now()
            WHERE id = \(id)
            """, logger: logger)
    }

    /// Appends options after the poll's last (positions from `option_count`).
    @discardableResult
    private static func insert(_ options: [PollOptionDraft], into pollID: String, on connection: PostgresConnection, logger: Logger)
        async throws -> [PollOption]
    {
        guard !options.isEmpty else { return [] }
        let made = options.map { PollOption(id: $0.id ?? UUID().lowercasedString, text: $0.text, custom: $0.custom) }
        try await connection.query(
            """
            WITH next AS (
                UPDATE polls SET option_count = option_count + \(made.count) WHERE id = \(pollID)
                RETURNING option_count - \(made.count) AS first
            )
            INSERT INTO poll_options (poll_id, id, text, custom, position)
            SELECT \(pollID), x.id, x.text, x.custom::jsonb, next.first + x.n - 1
            FROM next, unnest(\(made.map(\.id)), \(made.map(\.text)), \(made.map { JSONText.encode($0.custom) }))
                WITH ORDINALITY AS x(id, text, custom, n)
            """, logger: logger)
        return made
    }

    private static func refuseTaken(_ option: PollOptionDraft, in pollID: String, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        let rows = try await connection.query(
            """
            SELECT 1 FROM poll_options WHERE poll_id = \(pollID) AND text = \(option.text)
                AND (\(option.id == nil) OR id <> \(option.id ?? ""))
            """, logger: logger)
        for try await _ in rows { throw FeedsError.input("poll \(pollID) has an option \"\(option.text)\" already", field: "text") }
    }

    /// Counts again from the votes, after options went with theirs.
    static func recount(_ id: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            UPDATE polls SET vote_count = (SELECT count(*) FROM poll_votes WHERE poll_id = \(id) AND option_id IS NOT NULL),
                answers_count = (SELECT count(*) FROM poll_votes WHERE poll_id = \(id) AND option_id IS NULL)
            WHERE id = \(id)
            """, logger: logger)
    }
}
