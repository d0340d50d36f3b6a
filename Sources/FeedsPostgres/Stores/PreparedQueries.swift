import FeedsCore
import Logging
import PostgresNIO

/// The reads common enough to prepare once per connection, so that PostgreSQL plans them once
/// (planning a feed page costs it more than running one). Each shape is the SQL that
/// `PostgresActivityStore.sql(for:)` builds for a sample query; a query that builds the same
/// text runs as that prepared statement with its own bindings, any other as a plain query.
protocol PreparedShape: SendableMetatype {
    /// The statement's name on each connection, spelt out: PostgresNIO's default reflects the
    /// type's name again on every execution.
    static var name: String { get }
    static var sql: String { get }
}

extension PreparedShape {
    /// The rows of `query`, whose SQL is this shape's.
    static func rows(of query: PostgresQuery, on client: PostgresClient, logger: Logger) async throws -> [ActivityRow.Decoded] {
        var rows: [ActivityRow.Decoded] = []
        for try await row in try await client.execute(Prepared<Self>(query), logger: logger) { rows.append(row) }
        return rows
    }

    /// The same, on one connection.
    static func rows(of query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws
        -> [ActivityRow.Decoded]
    {
        var rows: [ActivityRow.Decoded] = []
        for try await row in try await connection.execute(Prepared<Self>(query), logger: logger) { rows.append(row) }
        return rows
    }
}

/// Every prepared shape, for `queryActivities` to match a query against.
let preparedShapes: [any PreparedShape.Type] = [
    UserFeedPage.self, ServerFeedPage.self, ServerFeedPageForUser.self, UserFeedNextPage.self, UserActivity.self,
    UserActivityWritten.self, ServerActivity.self, ServerActivityForUser.self,
]

/// The first page of one feed, read by a user (its counts as they may see them: `leavesOutBlocked`).
enum UserFeedPage: PreparedShape {
    static let name = "UserFeedPage"
    static let sql = shape(shown(ActivityQuery(feeds: ["-"], viewer: .user("-"), limit: 1)))
}

/// The first page of one feed, read by the server.
enum ServerFeedPage: PreparedShape {
    static let name = "ServerFeedPage"
    static let sql = shape(ActivityQuery(feeds: ["-"], viewer: .server, limit: 1))
}

/// The first page of one feed, read by the server for a user (`user_id`), with their own fields.
enum ServerFeedPageForUser: PreparedShape {
    static let name = "ServerFeedPageForUser"
    static let sql = shape(
        {
            var query = ActivityQuery(feeds: ["-"], viewer: .server, limit: 1)
            query.ownFieldsOf = "-"
            return query
        }())
}

/// A later page of one feed, read by a user.
enum UserFeedNextPage: PreparedShape {
    static let name = "UserFeedNextPage"
    static let sql = shape(
        shown(
            ActivityQuery(
                feeds: ["-"], viewer: .user("-"), limit: 1, cursor: ActivityCursor(micros: 0, id: "-", direction: .older))))
}

/// One activity by id, read by a user (GetActivity).
enum UserActivity: PreparedShape {
    static let name = "UserActivity"
    static let sql = shape(shown(.one("-", viewer: .user("-"), ownFieldsOf: "-")))
}

/// One activity by id as a user's write left it (the replies of reactions and bookmarks, also
/// their events: the whole counts).
enum UserActivityWritten: PreparedShape {
    static let name = "UserActivityWritten"
    static let sql = shape(.one("-", viewer: .user("-"), ownFieldsOf: "-"))
}

/// One activity by id, read by the server.
enum ServerActivity: PreparedShape {
    static let name = "ServerActivity"
    static let sql = shape(.one("-", viewer: .server, ownFieldsOf: nil))
}

/// One activity by id, read by the server with a user's own reactions and bookmarks (the reply
/// to a reaction or bookmark the server makes for a user).
enum ServerActivityForUser: PreparedShape {
    static let name = "ServerActivityForUser"
    static let sql = shape(.one("-", viewer: .server, ownFieldsOf: "-"))
}

/// A user's read: counts less the share of the users blocked either way with them. Prepared, the
/// guard that spares a reader without blocks the rest is planned once a connection; planned on
/// every read, it halved the feed page's rate.
private func shown(_ query: ActivityQuery) -> ActivityQuery {
    var query = query
    query.leavesOutBlocked = true
    return query
}

private func shape(_ sample: ActivityQuery) -> String {
    // The samples are fixed and valid, so building them cannot fail.
    try! PostgresActivityStore.sql(for: sample).sql
}

/// A built query of a prepared shape.
struct Prepared<Shape: PreparedShape>: PostgresPreparedStatement {
    typealias Row = ActivityRow.Decoded
    static var name: String { Shape.name }
    static var sql: String { Shape.sql }

    let bindings: PostgresBindings

    init(_ query: PostgresQuery) {
        bindings = query.binds
    }

    func makeBindings() throws -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> Row { try ActivityRow.decode(row) }
}
