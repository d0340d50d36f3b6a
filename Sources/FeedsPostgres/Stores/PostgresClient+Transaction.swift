import PostgresNIO

extension PostgresClient {
    /// `withTransaction`, throwing the error that caused the rollback rather than its wrapper,
    /// so that domain errors thrown inside keep their meaning.
    func transaction<Result>(
        logger: Logger,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        do {
            return try await withTransaction(logger: logger, isolation: isolation, body)
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
    }
}

extension PSQLError {
    /// A unique violation (SQLSTATE 23505) on the named constraint.
    func isUniqueViolation(of constraint: String) -> Bool {
        serverInfo?[.sqlState] == "23505" && serverInfo?[.constraintName] == constraint
    }

    /// Text PostgreSQL cannot store: a NUL character, in a text column (22021) or in jsonb (22P05).
    /// The client sent it, and the statement wrote nothing.
    public var isUnstorableText: Bool {
        ["22021", "22P05"].contains(serverInfo?[.sqlState])
    }
}
