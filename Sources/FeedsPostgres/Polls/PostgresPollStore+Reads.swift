import FeedsCore
import Foundation
import Logging
import PostgresNIO

extension PostgresPollStore {
    public func polls(_ ids: [String], viewer: Principal, reader: String?, logger: Logger) async throws -> [String: Poll] {
        try await Self.polls(ids, viewer: viewer, reader: reader, logger: logger) { try await reads.query($0, logger: logger) }
    }

    /// The polls, their options and their votes shown, in three reads one after another through
    /// `run`: a read after a write runs them on the write's connection, holding no second one.
    static func polls(
        _ ids: [String], viewer: Principal, reader: String?, logger: Logger,
        _ run: (PostgresQuery) async throws -> PostgresRowSequence
    ) async throws -> [String: Poll] {
        guard !ids.isEmpty else { return [:] }
        let ids = Array(Set(ids))
        let rows = try await run(pollRowsSQL(ids))
        var polls: [String: Poll] = [:]
        for try await row in rows {
            var columns = RowReader(row)
            let id: String = try columns.next()
            let settings = try Self.settings(&columns)
            let voteCount: Int = try columns.next(), answersCount: Int = try columns.next()
            let created: Date = try columns.next(), updated: Date = try columns.next()
            polls[id] = Poll(
                id: id, settings: settings, options: [], voteCount: voteCount, answersCount: answersCount,
                voteCountsByOption: [:],
                latestVotesByOption: [:], latestAnswers: [], ownVotes: [], createdBy: try UserRow.user(&columns),
                createdAt: created, updatedAt: updated)
        }
        for (pollID, option, count) in try await options(of: ids, run) {
            polls[pollID]?.options.append(option)
            polls[pollID]?.voteCountsByOption[option.id] = count
        }
        for (kind, vote) in try await shownVotes(of: ids, reader: reader, run) {
            guard let visibility = polls[vote.pollID]?.settings.votingVisibility else { continue }
            let seen = vote.seen(by: viewer, in: visibility)
            switch kind {
            case "own": polls[vote.pollID]?.ownVotes.append(seen)
            case "answer": polls[vote.pollID]?.latestAnswers.append(seen)
            default: polls[vote.pollID]?.latestVotesByOption[vote.optionID ?? "", default: []].append(seen)
            }
        }
        return polls
    }

    private static func options(of ids: [String], _ run: (PostgresQuery) async throws -> PostgresRowSequence) async throws
        -> [(String, PollOption, Int)]
    {
        let rows = try await run(pollOptionsSQL(ids))
        var options: [(String, PollOption, Int)] = []
        for try await (poll, id, text, custom, count) in rows.decode((String, String, String, String, Int).self) {
            options.append((poll, PollOption(id: id, text: text, custom: try JSONText.object(custom)), count))
        }
        return options
    }

    /// Each option's newest votes, the newest answers, and the reader's own votes: `latest`,
    /// `answer` or `own` first, newest first within each.
    private static func shownVotes(
        of ids: [String], reader: String?, _ run: (PostgresQuery) async throws -> PostgresRowSequence
    ) async throws -> [(String, PollVote)] {
        let rows = try await run(shownVotesSQL(ids, reader: reader))
        var votes: [(String, PollVote)] = []
        for try await row in rows {
            var columns = RowReader(row)
            let kind: String = try columns.next()
            votes.append((kind, try vote(&columns)))
        }
        return votes
    }

    // The three reads of `polls`, in order; `BenchSQLTests` holds the pgbench scripts of the
    // vote and the page of polls to them word for word.

    /// The polls with their makers.
    static func pollRowsSQL(_ ids: [String]) -> PostgresQuery {
        """
        SELECT p.id, p.name, p.description, p.voting_visibility, p.enforce_unique_vote, p.max_votes_allowed,
            p.allow_user_suggested_options, p.allow_answers, p.is_closed, p.custom::text, p.vote_count, p.answers_count,
            p.created_at, p.updated_at, \(unescaped: UserRow.columns(alias: "u"))
        FROM polls p JOIN users u ON u.id = p.created_by WHERE p.id = ANY(\(ids))
        """
    }

    /// The polls' options with their counts, in order.
    static func pollOptionsSQL(_ ids: [String]) -> PostgresQuery {
        "SELECT poll_id, id, text, custom::text, vote_count FROM poll_options WHERE poll_id = ANY(\(ids)) ORDER BY poll_id, position"
    }

    /// See `shownVotes`.
    static func shownVotesSQL(_ ids: [String], reader: String?) -> PostgresQuery {
        """
        SELECT 'latest', \(unescaped: Self.voteColumns) FROM poll_options o
        CROSS JOIN LATERAL (
            SELECT * FROM poll_votes v WHERE v.poll_id = o.poll_id AND v.option_id = o.id
            ORDER BY v.created_at DESC, v.id DESC LIMIT \(Poll.latestShown)
        ) v JOIN users u ON u.id = v.user_id
        WHERE o.poll_id = ANY(\(ids))
        UNION ALL
        SELECT 'answer', \(unescaped: Self.voteColumns) FROM unnest(\(ids)::text[]) AS p(id)
        CROSS JOIN LATERAL (
            SELECT * FROM poll_votes v WHERE v.poll_id = p.id AND v.option_id IS NULL
            ORDER BY v.created_at DESC, v.id DESC LIMIT \(Poll.latestShown)
        ) v JOIN users u ON u.id = v.user_id
        UNION ALL
        SELECT 'own', \(unescaped: Self.voteColumns) FROM poll_votes v JOIN users u ON u.id = v.user_id
        WHERE v.poll_id = ANY(\(ids)) AND v.user_id = \(reader ?? "") AND \(reader != nil)
        ORDER BY 6 DESC, 2 DESC
        """
    }

    public func mayRead(_ pollID: String, user: String, logger: Logger) async throws -> Bool? {
        var bind = SQLBinds()
        let sql = """
            SELECT p.created_by = \(try bind(user)) OR EXISTS (
                SELECT 1 FROM activities a WHERE a.poll_id = p.id AND \(ActivityLive.predicate("a"))
                    AND \(ActivityReadable.predicate(activity: "a", user: "$1")))
            FROM polls p WHERE p.id = \(try bind(pollID))
            """
        for try await readable in try await reads.query(bind.query(sql), logger: logger).decode(Bool.self) { return readable }
        return nil
    }

    public func activities(carrying pollID: String, logger: Logger) async throws -> [String] {
        let rows = try await reads.query(
            "SELECT id FROM activities WHERE poll_id = \(pollID) ORDER BY id LIMIT 100", logger: logger)
        var ids: [String] = []
        for try await id in rows.decode(String.self) { ids.append(id) }
        return ids
    }

    public func queryPolls(_ query: PollQuery, viewer: Principal, reader: String?, logger: Logger) async throws
        -> (polls: [Poll], next: String?)
    {
        var bind = SQLBinds()
        var sql = "SELECT p.id FROM polls p WHERE true"
        if let user = viewer.userID {
            let placeholder = try bind(user)
            sql += """
                 AND (p.created_by = \(placeholder) OR EXISTS (
                    SELECT 1 FROM activities a WHERE a.poll_id = p.id AND \(ActivityLive.predicate("a"))
                        AND \(ActivityReadable.predicate(activity: "a", user: placeholder))))
                """
        }
        if let ids = query.ids { sql += " AND p.id = ANY(\(try bind(ids)))" }
        if let creators = query.creators { sql += " AND p.created_by = ANY(\(try bind(creators)))" }
        if let closed = query.isClosed { sql += " AND p.is_closed = \(try bind(closed))" }
        let order = query.page.ascending ? "ASC" : "DESC"
        if let cursor = query.page.cursor {
            sql +=
                " AND (p.created_at, p.id) \(query.page.ascending ? ">" : "<") (\(try bind.time(microseconds: cursor.micros)), \(try bind(cursor.keys[0])))"
        }
        sql += " ORDER BY p.created_at \(order), p.id \(order) LIMIT \(query.page.limit + 1)"
        var ids: [String] = []
        for try await id in try await reads.query(bind.query(sql), logger: logger).decode(String.self) { ids.append(id) }
        let more = ids.count > query.page.limit
        if more { ids.removeLast() }
        let found = try await polls(ids, viewer: viewer, reader: reader, logger: logger)
        let polls = ids.compactMap { found[$0] }
        return (polls, more ? polls.last.map(query.cursor(after:)) : nil)
    }

    public func queryVotes(_ query: PollVoteQuery, viewer: Principal, logger: Logger) async throws
        -> (votes: [PollVote], next: String?)
    {
        var bind = SQLBinds()
        var sql = """
            SELECT p.voting_visibility, \(Self.voteColumns) FROM poll_votes v JOIN polls p ON p.id = v.poll_id
            JOIN users u ON u.id = v.user_id WHERE v.poll_id = \(try bind(query.pollID))
            """
        if let options = query.optionIDs { sql += " AND v.option_id = ANY(\(try bind(options)))" }
        if let users = query.userIDs { sql += " AND v.user_id = ANY(\(try bind(users)))" }
        if let answer = query.isAnswer { sql += " AND (v.option_id IS NULL) = \(try bind(answer))" }
        let order = query.page.ascending ? "ASC" : "DESC"
        if let cursor = query.page.cursor {
            sql +=
                " AND (v.created_at, v.id) \(query.page.ascending ? ">" : "<") (\(try bind.time(microseconds: cursor.micros)), \(try bind(cursor.keys[0])))"
        }
        sql += " ORDER BY v.created_at \(order), v.id \(order) LIMIT \(query.page.limit + 1)"
        var votes: [PollVote] = []
        for try await row in try await reads.query(bind.query(sql), logger: logger) {
            var columns = RowReader(row)
            let visibility = VotingVisibility(rawValue: try columns.next()) ?? .public
            votes.append(try Self.vote(&columns).seen(by: viewer, in: visibility))
        }
        let more = votes.count > query.page.limit
        if more { votes.removeLast() }
        return (votes, more ? votes.last.map(query.cursor(after:)) : nil)
    }
}
