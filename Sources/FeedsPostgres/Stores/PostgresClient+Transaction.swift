import FeedsCore
import PostgresNIO

extension PostgresClient {
    /// `withTransaction`, throwing the error that caused the rollback rather than its wrapper,
    /// so that domain errors thrown inside keep their meaning. A deadlock or serialization
    /// failure rolled everything back, so the whole of `body` runs again (`ConflictRetry`).
    func transaction<Result>(
        logger: Logger,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        try await ConflictRetry.run(logger: logger) {
            do {
                return try await withTransaction(logger: logger, isolation: isolation, body)
            } catch let error as PostgresTransactionError {
                throw error.closureError ?? error.commitError ?? error.beginError ?? error
            }
        }
    }
}

/// Runs a write again after PostgreSQL chose it to break a deadlock (40P01) or failed it to keep
/// a serializable order (40001): nothing of it was kept, so running it again is safe. At most
/// `attempts` tries, a short random wait between them so the two sides do not meet again; past
/// that, or for any other error, the error stands.
enum ConflictRetry {
    static let attempts = 4

    static func run<Result>(
        logger: Logger, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> sending Result
    ) async throws -> sending Result {
        var tried = 1
        while true {
            do {
                return try await body()
            } catch let error as PSQLError where error.isConflict && tried < attempts {
                logger.notice(
                    "write conflict; trying again",
                    metadata: ["sqlstate": "\(error.serverInfo?[.sqlState] ?? "")", "try": "\(tried + 1)"])
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...20) * tried))
                tried += 1
            }
        }
    }
}

extension PostgresClient {
    /// Runs `body`'s statements (each its own transaction) on one connection and returns once
    /// PostgreSQL has committed them. Such a statement commits at the protocol's Sync, after its
    /// rows and CommandComplete, and PostgresNIO ends the query at CommandComplete: a crash in
    /// between would lose a write the client was told of (`DatabaseRestartTests` saw one). The
    /// connection starts its next statement only after that commit, so one round trip proves it:
    /// a crash before it closes the connection, and the round trip fails. A deadlock runs `body`
    /// again (`ConflictRetry`), so its writes are one statement: nothing of it was kept.
    func committed<Result>(
        logger: Logger,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        try await ConflictRetry.run(logger: logger) {
            try await withConnection(isolation: isolation) { connection in
                let result = try await body(connection)
                try await connection.query("SELECT 1", logger: logger)
                return result
            }
        }
    }
}

extension PSQLError {
    /// A unique violation (SQLSTATE 23505) on the named constraint.
    func isUniqueViolation(of constraint: String) -> Bool {
        serverInfo?[.sqlState] == "23505" && serverInfo?[.constraintName] == constraint
    }

    /// A deadlock (40P01) or a serialization failure (40001): the statement's transaction was
    /// rolled back whole, and may be run again.
    var isConflict: Bool {
        ["40P01", "40001"].contains(serverInfo?[.sqlState])
    }

    /// A foreign key violation (SQLSTATE 23503) on the named constraint.
    func isForeignKeyViolation(of constraint: String) -> Bool {
        serverInfo?[.sqlState] == "23503" && serverInfo?[.constraintName] == constraint
    }

    /// Text PostgreSQL cannot store: a NUL character, in a text column (22021) or in jsonb (22P05).
    /// The client sent it, and the statement wrote nothing.
    public var isUnstorableText: Bool {
        ["22021", "22P05"].contains(serverInfo?[.sqlState])
    }

    /// The database is down, restarting, or cut off, and may answer again soon: connections
    /// closed or refused, and the server's own SQLSTATE classes 08 (connection), 53 (resources,
    /// such as too many connections) and 57 (shutdown, crash recovery, a cancelled statement).
    public var isUnavailable: Bool {
        switch code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed,
            .queryCancelled:
            return true
        case .server:
            guard let state = serverInfo?[.sqlState] else { return false }
            return ["08", "53", "57"].contains(String(state.prefix(2)))
        default:
            return false
        }
    }
}

extension PSQLError: ClientMeaningfulError {
    package var feedsError: FeedsError? {
        if isUnstorableText { return .unstorable }
        if isUnavailable { return .databaseUnavailable }
        return nil
    }
}
