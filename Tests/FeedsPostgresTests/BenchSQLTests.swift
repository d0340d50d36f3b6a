import FeedsCore
import Foundation
import PostgresNIO
import Testing

@testable import FeedsPostgres

/// `make bench` holds the feed-page read against pgbench running the same SELECT; this keeps the
/// copy in `bench/pgbench/read-feed.sql` the server's own SQL, word for word.
@Suite struct BenchSQLTests {
    /// A user's read of their feed's page, as GetOrCreateFeed asks for it.
    static var feedPage: ActivityQuery {
        var query = ActivityQuery(feeds: ["user:x"], viewer: .user("x"), limit: 25)
        query.leavesOutBlocked = true
        return query
    }

    @Test func thePgbenchFeedPageIsTheServersSelect() throws {
        let query = try PostgresActivityStore.sql(for: Self.feedPage)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = try String(contentsOf: root.appendingPathComponent("bench/pgbench/read-feed.sql"), encoding: .utf8)
        let select = script.split(separator: "\n").filter { !$0.hasPrefix("--") && !$0.hasPrefix("\\") }
            .joined(separator: "\n")
        // pgbench's variables stand where the server binds the reader (for their own reactions and
        // bookmarks), the reader again (who may read what), the feed and the limit + 1.
        let server = query.sql.replacingOccurrences(of: "$1", with: "'loadtest-' || :u::text")
            .replacingOccurrences(of: "$2", with: "'loadtest-' || :u::text")
            .replacingOccurrences(of: "$3", with: #"E'user\x3aloadtest-' || :u::text"#)
            .replacingOccurrences(of: "$4", with: "26")
        #expect(words(select) == words(server + ";"))
    }

    /// The reaction bench's two statements: the server's insert, and its read of the activity
    /// with the reactor's own fields.
    @Test func thePgbenchReactionIsTheServersStatements() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = try String(contentsOf: root.appendingPathComponent("bench/pgbench/add-reaction.sql"), encoding: .utf8)
        let statements = script.split(separator: "\n").filter { !$0.hasPrefix("--") && !$0.hasPrefix("\\") }
            .joined(separator: "\n").split(separator: ";").map(String.init).filter { !words($0).isEmpty }
        #expect(statements.count == 2)
        let activity = "(SELECT id FROM bench_reaction_targets WHERE n = :n)"
        let user = "'loadtest-' || :u::text"
        let insert = InsertReaction<ActivityReactions>.sql.replacingOccurrences(of: "$1", with: activity)
            .replacingOccurrences(of: "$2", with: user).replacingOccurrences(
                of: "$3", with: "(ARRAY['like','heart','wow','fire'])[:t]"
            )
            .replacingOccurrences(of: "$4", with: "'{}'").replacingOccurrences(of: "$5", with: user)
            .replacingOccurrences(of: "$6", with: "false").replacingOccurrences(of: "$7", with: "25")
        var byID = ActivityQuery(viewer: .user("x"), limit: 1)
        byID.ids = ["x"]
        let read = try PostgresActivityStore.sql(for: byID).sql.replacingOccurrences(of: "$1", with: user)
            .replacingOccurrences(of: "$2", with: user).replacingOccurrences(of: "$3", with: activity)
            .replacingOccurrences(of: "$4", with: "2")
        #expect(statements.map(words) == [words(insert), words(read)])
    }

    /// The notification page's two statements: its groups with their notifications, and the status.
    @Test func thePgbenchNotificationPageIsTheServersStatements() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = try String(contentsOf: root.appendingPathComponent("bench/pgbench/read-bell.sql"), encoding: .utf8)
        let statements = script.split(separator: "\n").filter { !$0.hasPrefix("--") && !$0.hasPrefix("\\") }
            .joined(separator: "\n").split(separator: ";").map(String.init).filter { !words($0).isEmpty }
        let feed = #"E'notification\x3abell-' || :b::text"#
        // The first page of 25 (no cursor), 10 notifications a group.
        let page = PostgresNotificationStore.pageSQL.replacingOccurrences(of: "$1", with: feed)
            .replacingOccurrences(of: "$2", with: "true").replacingOccurrences(of: "$3", with: "0")
            .replacingOccurrences(of: "$4", with: "''").replacingOccurrences(of: "$5", with: "25")
            .replacingOccurrences(of: "$6", with: "10")
        let status = PostgresNotificationStore.statusSQL.replacingOccurrences(of: "$1", with: feed)
            .replacingOccurrences(of: "$2", with: "\(NotificationStatus.listedGroups)")
        #expect(PostgresNotificationStore.listed == 10)
        #expect(statements.map(words) == [words(page), words(status)])
    }

    /// GetFollowSuggestions: `bench/pgbench/read-suggestions.sql` is the server's SELECT for one of
    /// the bench's readers, 10 suggestions of the `user` group.
    @Test func thePgbenchSuggestionsAreTheServersSelect() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = try String(contentsOf: root.appendingPathComponent("bench/pgbench/read-suggestions.sql"), encoding: .utf8)
        let select = script.split(separator: "\n").filter { !$0.hasPrefix("--") && !$0.hasPrefix("\\") }
            .joined(separator: "\n")
        let server = try PostgresActivityStore.suggestionsSQL(group: "user", for: "x", limit: 10).sql
            .replacingOccurrences(of: "$1", with: "'tl-' || :u::text").replacingOccurrences(of: "$2", with: "'user'")
            .replacingOccurrences(of: "$3", with: "10")
        #expect(words(select) == words(server + ";"))
    }

    /// The popular view's page: `bench/pgbench/read-view.sql` is the server's SELECT for a reader
    /// of the bench's view (a popular selector, a decayed popularity score).
    @Test func thePgbenchPopularViewIsTheServersSelect() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = try String(contentsOf: root.appendingPathComponent("bench/pgbench/read-view.sql"), encoding: .utf8)
        let select = script.split(separator: "\n").filter { !$0.hasPrefix("--") && !$0.hasPrefix("\\") }
            .joined(separator: "\n")
        #expect(words(select) == words(try Self.popularViewSQL() + ";"))
    }

    /// The server's SQL for the bench's popular view, pgbench's variables where it binds values
    /// (highest first, so that `$1` does not take the start of `$12`).
    static func popularViewSQL() throws -> String {
        let view = try FeedView(
            id: "popular-bench", selectors: [try ActivitySelection(kind: .popular, field: "s")],
            ranking: try Ranking(score: "decay_linear(time) * popularity ^ 0.5", defaults: [:], decays: [:]))
        let query = ViewPageQuery(
            feed: try FeedID("timeline:x"), view: view, viewer: .user("x"), ownFieldsOf: "x", limit: 25, cursor: nil,
            now: Date(timeIntervalSince1970: 0))
        let reader = "'tl-' || :u::text", now = "extract(epoch FROM now())"
        let values = [reader, reader, now, "1000", "5", "604800", "ARRAY['popular']", "26", now, "0", "172800", "0.5"]
        var sql = try PostgresActivityStore.viewSQL(query, now: query.now).sql
        for (index, value) in values.enumerated().reversed() { sql = sql.replacingOccurrences(of: "$\(index + 1)", with: value) }
        #expect(!sql.contains("$"), "a parameter the bench does not set: \(sql)")
        return sql
    }

    /// CastPollVote: `bench/pgbench/cast-vote.sql` runs the server's statements for a vote, in its
    /// order: the activity read with its poll, the vote in its transaction (a first vote, and a vote
    /// moved to another option, as the branches of the script), the poll read again.
    @Test func thePgbenchVoteIsTheServersStatements() throws {
        let statements = try Self.statements(of: "bench/pgbench/cast-vote.sql")
        let user = "'voter-' || :u::text", poll = "'bench-poll'", option = ":o::text"
        let activity = try PostgresActivityStore.sql(for: .one("x", viewer: .user("x"), ownFieldsOf: "x"))
        let reads =
            [bind(activity, user, user, "'poll-bench-activity'", "2")]
            + pollReads(ids: "ARRAY['bench-poll']", reader: user)
        // pgbench cannot keep the id of the vote it read (the voter's has the same column name), so
        // it finds the vote it moves by its voter.
        let oldest = "(SELECT id FROM poll_votes WHERE poll_id = \(poll) AND user_id = \(user) AND option_id IS NOT NULL)"
        let vote = [
            "BEGIN",
            bind(PostgresPollStore.lockSQL("p"), poll),
            bind(PostgresPollStore.voterSQL("u"), user),
            bind(PostgresPollStore.optionSQL("o", of: "p"), poll, option),
            bind(PostgresPollStore.ownVotesSQL(on: "p", by: "u"), poll, user),
            bind(PostgresPollStore.castSQL("v", for: "o", on: "p", by: "u"), poll, "gen_random_uuid()::text", user, option),
            bind(PostgresPollStore.countSQL(1, "o", on: "p"), "1", poll, option, "1", poll),
            bind(PostgresPollStore.moveSQL("v", to: "o", on: "p"), option, poll, oldest),
            bind(PostgresPollStore.countSQL(-1, "o", on: "p"), "-1", poll, ":option_id::text", "-1", poll),
            bind(PostgresPollStore.countSQL(1, "o", on: "p"), "1", poll, option, "1", poll),
            "COMMIT",
        ]
        #expect(statements.map(words) == (reads + vote + reads.dropFirst()).map(words))
    }

    /// A page of activities that carry polls: `bench/pgbench/read-polls.sql` is the feed page's
    /// SELECT and the three reads of its polls, for a reader of `bench/poll-data.sql`.
    @Test func thePgbenchPageOfPollsIsTheServersStatements() throws {
        let statements = try Self.statements(of: "bench/pgbench/read-polls.sql")
        let reader = "'pollpage-' || :u::text"
        let page = try PostgresActivityStore.sql(for: Self.feedPage)
        let ids = "ARRAY[" + (1...25).reversed().map { "'pp-' || :u::text || '-\($0)'" }.joined(separator: ", ") + "]"
        let server =
            [bind(page, reader, reader, #"E'user\x3apollpage-' || :u::text"#, "26")] + pollReads(ids: ids, reader: reader)
        #expect(statements.map(words) == server.map(words))
    }

    /// `PostgresPollStore.polls`' three reads, pgbench's expressions for the poll ids and the reader.
    func pollReads(ids: String, reader: String) -> [String] {
        [
            bind(PostgresPollStore.pollRowsSQL(["p"]), ids),
            bind(PostgresPollStore.pollOptionsSQL(["p"]), ids),
            bind(
                PostgresPollStore.shownVotesSQL(["p"], reader: "u"), "\(Poll.latestShown)", ids, ids, "\(Poll.latestShown)", ids,
                reader, "true"),
        ]
    }

    /// The query's SQL with `values` in place of `$1`, `$2`, … (highest first, so that `$1` does
    /// not take the start of `$12`); every parameter must have its value.
    func bind(_ query: PostgresQuery, _ values: String...) -> String {
        var sql = query.sql
        for (index, value) in values.enumerated().reversed() { sql = sql.replacingOccurrences(of: "$\(index + 1)", with: value) }
        #expect(!sql.contains("$"), "a parameter the bench does not set: \(sql)")
        return sql
    }

    /// A pgbench script's SQL statements in order, whichever branch of its `\if`s runs them:
    /// comments and meta-commands left out; a statement ends at its `;` or at a meta-command
    /// (`\aset` ends the one before it).
    static func statements(of path: String) throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        var statements: [String] = [], current = ""
        for line in script.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix("--") {
            if line.hasPrefix("\\") {
                if !current.isEmpty { statements.append(current) }
                current = ""
                continue
            }
            current += (current.isEmpty ? "" : "\n") + line
            if line.hasSuffix(";") {
                statements.append(String(current.dropLast()))
                current = ""
            }
        }
        return statements.filter { !$0.split(whereSeparator: \.isWhitespace).isEmpty }
    }

    func words(_ text: String) -> [Substring] { text.split(whereSeparator: \.isWhitespace) }
}
