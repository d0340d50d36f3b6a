/// Sends read operations to read replicas (`ReadReplicas` in FeedsPostgres); the HTTP layer
/// says which operations are reads, and who asks.
package protocol ReadRouting: Sendable {
    /// Runs a read operation's `body` with its reads on a replica that may answer `principal`,
    /// or on the primary when none may. When the replica fails it (`mayBeReplicas`), `body` runs
    /// again, on the primary: a read has nothing to undo.
    func read<T: Sendable>(
        as principal: Principal, retryingWhen mayBeReplicas: (any Error) -> Bool, _ body: () async throws -> T
    ) async throws -> T

    /// `principal`'s write was acknowledged: their reads stay on the primary until a replica has replayed it.
    func wrote(_ principal: Principal)
}
