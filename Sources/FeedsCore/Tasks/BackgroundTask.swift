import Foundation

/// A task as GetTask shows it: what a call that answers with a `task_id` did. DeleteFeed,
/// DeleteFeedsBatch and the user (de)activations do their work inside the call and record the
/// task completed with it; DeleteUsers and DeleteFeedUserData queue theirs (`pending`), and a
/// worker runs it in steps (`running`, with its progress in `result`) to `completed` or `failed`.
public struct BackgroundTask: Sendable, Equatable {
    public enum Status: String, Sendable {
        case pending, running, completed, failed
    }

    public var id: String
    public var kind: String
    public var status: Status
    /// What the work did, in Stream's `result` object (counts, ids).
    public var result: [String: JSONValue]
    public var createdAt: Date
    public var updatedAt: Date
    /// Why a failed task stopped, in Stream's `ErrorResult` (`type`, `description`).
    public var error: Failure?

    public struct Failure: Sendable, Equatable, Codable {
        public var type: String
        public var description: String

        public init(type: String, description: String) { (self.type, self.description) = (type, description) }
    }

    public init(
        id: String, kind: String, status: Status, result: [String: JSONValue], createdAt: Date, updatedAt: Date,
        error: Failure? = nil
    ) {
        (self.id, self.kind, self.status, self.result) = (id, kind, status, result)
        (self.createdAt, self.updatedAt, self.error) = (createdAt, updatedAt, error)
    }
}
