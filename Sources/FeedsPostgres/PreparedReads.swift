import Logging
import PostgresNIO

/// A read of fixed text run on every feed page besides the page itself (the follow lists, the
/// reader's own follows and memberships of the feeds listed, the activities' feeds): prepared
/// once per connection on the generic-plan pool, like the pages (`PreparedShape`). Planning
/// these joins cost PostgreSQL more than running them: on a timeline page they were three times
/// the page's own cost. A built query whose text is a known read's runs as it, with its binds.
protocol PreparedRead: SendableMetatype {
    /// The statement's name on each connection, spelt out as `PreparedShape`'s are.
    static var name: String { get }
    static var sql: String { get }
}

extension PreparedRead {
    /// The rows of `query`, whose text is this statement's, run as it with its binds.
    static func rows(of query: PostgresQuery, on client: PostgresClient, logger: Logger) async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for try await row in try await sequence(of: query, on: client, logger: logger) { rows.append(row) }
        return rows
    }

    /// The same, as they come.
    static func sequence(of query: PostgresQuery, on client: PostgresClient, logger: Logger) async throws
        -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>
    {
        assert(query.sql == sql, "\(name) run with another statement's text")
        return try await client.execute(PreparedRows<Self>(bindings: query.binds), logger: logger)
    }
}

/// A known read's statement, its rows left to the caller to decode.
private struct PreparedRows<Read: PreparedRead>: PostgresPreparedStatement {
    typealias Row = PostgresRow
    static var name: String { Read.name }
    static var sql: String { Read.sql }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

extension PostgresActivityStore {
    /// The rows of `query`: as the prepared read of `known` that has its text, else planned for
    /// its values (a filter the known reads do not cover).
    func rows(of query: PostgresQuery, preparedAs known: [any PreparedRead.Type], logger: Logger) async throws
        -> [PostgresRow]
    {
        if let read = known.first(where: { $0.sql == query.sql }) {
            return try await read.rows(of: query, on: preparedReads, logger: logger)
        }
        var rows: [PostgresRow] = []
        for try await row in try await reads.query(query, logger: logger) { rows.append(row) }
        return rows
    }
}
