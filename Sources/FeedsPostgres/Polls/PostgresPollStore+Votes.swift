import FeedsCore
import Foundation
import Logging
import PostgresNIO

extension PostgresPollStore {
    public func castVote(on pollID: String, _ choice: VoteChoice, by user: String, logger: Logger) async throws
        -> (vote: PollVote, outcome: VoteOutcome)
    {
        try await client.transaction(logger: logger) { connection in
            let settings = try await Self.locked(pollID, owner: nil, on: connection, logger: logger).settings
            guard !settings.isClosed else { throw FeedsError.input("poll \(pollID) is closed", field: "poll_id") }
            try await connection.query(Self.voterSQL(user), logger: logger)
            switch choice {
            case .option(let optionID):
                return try await Self.vote(for: optionID, on: pollID, settings, by: user, on: connection, logger: logger)
            case .answer(let text):
                guard settings.allowAnswers else { throw FeedsError.input("poll \(pollID) takes no answers", field: "vote.answer_text") }
                return try await Self.answer(text, on: pollID, by: user, on: connection, logger: logger)
            }
        }
    }

    public func removeVote(from pollID: String, voteID: String, by user: String?, logger: Logger) async throws -> PollVote {
        try await client.transaction(logger: logger) { connection in
            let settings = try await Self.locked(pollID, owner: nil, on: connection, logger: logger).settings
            guard !settings.isClosed else { throw FeedsError.input("poll \(pollID) is closed", field: "poll_id") }
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.voteColumns) FROM poll_votes v JOIN users u ON u.id = v.user_id WHERE v.poll_id = \(pollID) AND v.id = \(voteID)",
                logger: logger)
            guard let vote = try await Self.votes(rows).first else { throw FeedsError.notFound("poll \(pollID) has no vote \(voteID)") }
            if let user, vote.user?.id != user { throw FeedsError.notAllowed("\(user) may take back only their own votes") }
            try await connection.query("DELETE FROM poll_votes WHERE poll_id = \(pollID) AND id = \(voteID)", logger: logger)
            if let optionID = vote.optionID {
                try await Self.count(-1, optionID, on: pollID, connection, logger)
            } else {
                try await connection.query("UPDATE polls SET answers_count = answers_count - 1 WHERE id = \(pollID)", logger: logger)
            }
            return vote
        }
    }

    /// A vote for an option: the same again changes nothing; past the voter's allowance (one when
    /// votes are unique) their oldest vote moves to this option.
    private static func vote(
        for optionID: String, on pollID: String, _ settings: PollSettings, by user: String, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> (vote: PollVote, outcome: VoteOutcome) {
        let exists = try await connection.query(optionSQL(optionID, of: pollID), logger: logger)
        var found = false
        for try await _ in exists { found = true }
        guard found else { throw FeedsError.notFound("poll \(pollID) has no option \(optionID)") }
        let mine = try await votes(try await connection.query(ownVotesSQL(on: pollID, by: user), logger: logger))
        if let same = mine.first(where: { $0.optionID == optionID }) { return (same, .unchanged) }
        if mine.count >= settings.votesPerVoter, let oldest = mine.first, let from = oldest.optionID {
            let moved = try await votes(
                try await connection.query(moveSQL(oldest.id, to: optionID, on: pollID), logger: logger))
            try await count(-1, from, on: pollID, connection, logger)
            try await count(1, optionID, on: pollID, connection, logger)
            return (moved[0], .changed)
        }
        let cast = try await votes(
            try await connection.query(castSQL(UUID().lowercasedString, for: optionID, on: pollID, by: user), logger: logger))
        try await count(1, optionID, on: pollID, connection, logger)
        return (cast[0], .cast)
    }

    // A vote's statements, in the order `castVote` runs them after `lockSQL`; `BenchSQLTests`
    // holds `bench/pgbench/cast-vote.sql` to them word for word.

    /// The voter's row, made on their first write.
    static func voterSQL(_ user: String) -> PostgresQuery {
        "INSERT INTO users (id) VALUES (\(user)) ON CONFLICT (id) DO NOTHING"
    }

    /// Whether the poll has the option.
    static func optionSQL(_ optionID: String, of pollID: String) -> PostgresQuery {
        "SELECT 1 FROM poll_options WHERE poll_id = \(pollID) AND id = \(optionID)"
    }

    /// The voter's votes for options, oldest first.
    static func ownVotesSQL(on pollID: String, by user: String) -> PostgresQuery {
        """
        SELECT \(unescaped: voteColumns) FROM poll_votes v JOIN users u ON u.id = v.user_id
        WHERE v.poll_id = \(pollID) AND v.user_id = \(user) AND v.option_id IS NOT NULL ORDER BY v.created_at, v.id
        """
    }

    /// A vote moved to another option.
    static func moveSQL(_ voteID: String, to optionID: String, on pollID: String) -> PostgresQuery {
        """
        WITH v AS (
            UPDATE poll_votes SET option_id = \(optionID), updated_at = now()
            WHERE poll_id = \(pollID) AND id = \(voteID) RETURNING *
        )
        SELECT \(unescaped: voteColumns) FROM v JOIN users u ON u.id = v.user_id
        """
    }

    /// A new vote.
    static func castSQL(_ voteID: String, for optionID: String, on pollID: String, by user: String) -> PostgresQuery {
        """
        WITH v AS (
            INSERT INTO poll_votes (poll_id, id, user_id, option_id) VALUES (\(pollID), \(voteID), \(user), \(optionID))
            RETURNING *
        )
        SELECT \(unescaped: voteColumns) FROM v JOIN users u ON u.id = v.user_id
        """
    }

    /// An option's count and the poll's, by `change`.
    static func countSQL(_ change: Int, _ optionID: String, on pollID: String) -> PostgresQuery {
        """
        WITH o AS (UPDATE poll_options SET vote_count = vote_count + \(change) WHERE poll_id = \(pollID) AND id = \(optionID))
        UPDATE polls SET vote_count = vote_count + \(change) WHERE id = \(pollID)
        """
    }

    /// An answer: one a voter, a new one in place of the old.
    private static func answer(_ text: String, on pollID: String, by user: String, on connection: PostgresConnection, logger: Logger)
        async throws -> (vote: PollVote, outcome: VoteOutcome)
    {
        let rows = try await connection.query(
            """
            WITH old AS (
                SELECT answer_text FROM poll_votes WHERE poll_id = \(pollID) AND user_id = \(user) AND option_id IS NULL
            ), v AS (
                INSERT INTO poll_votes (poll_id, id, user_id, answer_text) VALUES (\(pollID), \(UUID().lowercasedString), \(user), \(text))
                ON CONFLICT (poll_id, user_id) WHERE option_id IS NULL DO UPDATE SET answer_text = EXCLUDED.answer_text,
                    updated_at = CASE WHEN poll_votes.answer_text = EXCLUDED.answer_text THEN poll_votes.updated_at ELSE now() END
                RETURNING *
            )
            SELECT \(unescaped: voteColumns), (SELECT answer_text FROM old) FROM v JOIN users u ON u.id = v.user_id
            """, logger: logger)
        var result: (PollVote, String?)?
        for try await row in rows {
            var columns = RowReader(row)
            result = (try vote(&columns), try columns.next())
        }
        guard let (vote, old) = result else { throw FeedsError(.internal, "an answer was not written") }
        guard let old else {
            try await connection.query("UPDATE polls SET answers_count = answers_count + 1 WHERE id = \(pollID)", logger: logger)
            return (vote, .cast)
        }
        return (vote, old == text ? .unchanged : .changed)
    }

    private static func count(_ change: Int, _ optionID: String, on pollID: String, _ connection: PostgresConnection, _ logger: Logger)
        async throws
    {
        try await connection.query(countSQL(change, optionID, on: pollID), logger: logger)
    }

    /// A vote's columns, `v` the vote and `u` its voter.
    static let voteColumns = "v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, \(UserRow.columns(alias: "u"))"

    static func vote(_ columns: inout RowReader) throws -> PollVote {
        let id: String = try columns.next(), poll: String = try columns.next()
        let option: String? = try columns.next(), answer: String? = try columns.next()
        let created: Date = try columns.next(), updated: Date = try columns.next()
        return PollVote(
            id: id, pollID: poll, optionID: option, answerText: answer, user: try UserRow.user(&columns), createdAt: created,
            updatedAt: updated)
    }

    static func votes(_ rows: PostgresRowSequence) async throws -> [PollVote] {
        var votes: [PollVote] = []
        for try await row in rows {
            var columns = RowReader(row)
            votes.append(try vote(&columns))
        }
        return votes
    }
}
