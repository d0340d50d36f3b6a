import Foundation

/// A task as GetTask shows it: what a call that answers with a `task_id` (DeleteFeed,
/// DeleteFeedsBatch) did. This server does such work inside the call, in one transaction, and
/// records the task with it, so a task is `completed` by the time its id is seen.
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

    public init(id: String, kind: String, status: Status, result: [String: JSONValue], createdAt: Date, updatedAt: Date) {
        (self.id, self.kind, self.status, self.result) = (id, kind, status, result)
        (self.createdAt, self.updatedAt) = (createdAt, updatedAt)
    }
}
