import Logging

/// What an `Idempotency-Key` finds when a request claims it.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key is this request's: do the work, then complete or release it.
    case claimed
    /// An earlier request with the key and the same content finished: answer as it did.
    case replay(status: Int, body: [UInt8])
    /// The key was used within 24 hours for a different request.
    case mismatch
    /// The first request with the key is still running.
    case inFlight
}

/// Remembers the first response to each (caller, `Idempotency-Key`) for 24 hours, so that a
/// retried request returns it again and creates nothing.
public protocol IdempotencyStore: Sendable {
    /// Claims `key` for a request whose content hashes to `requestHash`.
    func claim(principal: String, key: String, requestHash: String, logger: Logger) async throws -> IdempotencyClaim

    /// Records the response of the request that claimed `key`.
    func complete(principal: String, key: String, status: Int, body: [UInt8], logger: Logger) async throws

    /// Gives up a claim whose request failed, so that a retry may run.
    func release(principal: String, key: String, logger: Logger) async throws
}
