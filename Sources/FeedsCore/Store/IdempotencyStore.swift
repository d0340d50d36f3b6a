import Logging

/// What an `Idempotency-Key` finds when a request claims it.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key is this request's: do the work, then complete or release it.
    case claimed
    /// An earlier request with the key and the same content finished: answer as it did.
    case replay(status: Int, body: [UInt8])
    /// The key was used within 24 hours for a different request.
    case mismatch
    /// The first request with the key is still running (its lease is not over).
    case inFlight
}

/// The reply to record for a claimed key, written by the transaction of the write it protects:
/// once that write commits, a retry replays the reply and writes nothing, even if the process
/// dies before it answers. `reply` makes the reply's bytes from what the write stored.
public struct IdempotentRecord<Stored>: Sendable {
    public let principal: String
    public let key: String
    public let reply: @Sendable (Stored) throws -> [UInt8]

    public init(principal: String, key: String, reply: @escaping @Sendable (Stored) throws -> [UInt8]) {
        self.principal = principal
        self.key = key
        self.reply = reply
    }
}

/// Remembers the first response to each (caller, `Idempotency-Key`) for 24 hours, so that a
/// retried request returns it again and creates nothing.
public protocol IdempotencyStore: Sendable {
    /// Claims `key` for a request whose content hashes to `requestHash`, for `lease`: a claim whose
    /// request died is taken over by the next request once its lease is over.
    func claim(principal: String, key: String, requestHash: String, lease: Duration, logger: Logger) async throws
        -> IdempotencyClaim

    /// Records the response of the request that claimed `key`, unless its write recorded it already.
    func complete(principal: String, key: String, status: Int, body: [UInt8], logger: Logger) async throws

    /// Gives up a claim whose request failed, so that a retry may run.
    func release(principal: String, key: String, logger: Logger) async throws

    /// Deletes keys older than 24 hours; returns how many.
    func purgeExpired(logger: Logger) async throws -> Int
}
