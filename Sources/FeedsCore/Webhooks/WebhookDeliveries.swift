import Foundation
import Logging

/// The outbox as the admin console sees it: what waits, what failed, and a retry.
public protocol WebhookDeliveries: Sendable {
    func summary(logger: Logger) async throws -> WebhookSummary
    /// The newest failed deliveries, at most `limit`.
    func failed(limit: Int, logger: Logger) async throws -> [FailedWebhook]
    /// Failed deliveries (these, or all when nil) are pending again; returns how many.
    func retry(_ ids: [Int64]?, logger: Logger) async throws -> Int
}

public struct WebhookSummary: Sendable, Equatable {
    public var pending: Int
    public var failed: Int
    /// When the oldest pending event happened.
    public var oldestPending: Date?
    /// The first pending delivery that failed an attempt, waiting for its next.
    public var retrying: Retrying?

    public struct Retrying: Sendable, Equatable {
        public var eventType: String
        public var attempts: Int
        public var error: String

        public init(eventType: String, attempts: Int, error: String) {
            (self.eventType, self.attempts, self.error) = (eventType, attempts, error)
        }
    }

    public init(pending: Int, failed: Int, oldestPending: Date?, retrying: Retrying?) {
        (self.pending, self.failed, self.oldestPending, self.retrying) = (pending, failed, oldestPending, retrying)
    }
}

/// A delivery given up on (its day was up) or refused by the receiver (4xx).
public struct FailedWebhook: Sendable, Equatable {
    public var id: Int64
    public var hookID: String
    public var eventType: String
    public var attempts: Int
    public var error: String
    public var createdAt: Date
    public var failedAt: Date

    public init(id: Int64, hookID: String, eventType: String, attempts: Int, error: String, createdAt: Date, failedAt: Date) {
        (self.id, self.hookID, self.eventType, self.attempts, self.error, self.createdAt, self.failedAt) =
            (id, hookID, eventType, attempts, error, createdAt, failedAt)
    }
}
