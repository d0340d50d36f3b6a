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
        // pgbench's variables stand where the server binds the feed, the viewer and the limit + 1.
        let server = query.sql.replacingOccurrences(of: "$1", with: #"E'user\x3aloadtest-' || :u::text"#)
            .replacingOccurrences(of: "$2", with: "'loadtest-' || :u::text")
            .replacingOccurrences(of: "$3", with: "26")
        #expect(words(select) == words(server + ";"))
    }

    func words(_ text: String) -> [Substring] { text.split(whereSeparator: \.isWhitespace) }
}
