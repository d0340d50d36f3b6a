import FeedsAPI
import FeedsCore

extension Wire {
    /// GetTask's reply.
    package static func task(_ task: BackgroundTask, duration: String) throws -> Components.Schemas.GetTaskResponse {
        .init(
            createdAt: WireTime.nanoseconds(task.createdAt), duration: duration,
            error: task.error.map { .init(description: $0.description, _type: $0.type) },
            result: .init(additionalProperties: try FreeForm.containers(task.result)), status: task.status.rawValue,
            taskId: task.id, updatedAt: WireTime.nanoseconds(task.updatedAt))
    }
}
