import FeedsCore
import Foundation
import Testing

@testable import FeedsPostgres

/// `make bench` holds the feed-page read against pgbench running the same SELECT; this keeps the
/// copy in `bench/pgbench/read-feed.sql` the server's own SQL, word for word.
@Suite struct BenchSQLTests {
    @Test func thePgbenchFeedPageIsTheServersSelect() throws {
        let query = try PostgresActivityStore.sql(for: ActivityQuery(feeds: ["user:x"], viewer: .user("x"), limit: 25))
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
            .replacingOccurrences(of: "$2", with: user).replacingOccurrences(of: "$3", with: "ARRAY[\(activity)]")
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

    func words(_ text: String) -> [Substring] { text.split(whereSeparator: \.isWhitespace) }
}
