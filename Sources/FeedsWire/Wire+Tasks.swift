import FeedsAPI
import FeedsCore

extension Wire {
    /// GetTask's reply.
    package static func task(_ task: BackgroundTask, duration: String) throws -> Components.Schemas.GetTaskResponse {
        .init(
            createdAt: WireTime.nanoseconds(task.createdAt), duration: duration,
            result: .init(additionalProperties: try FreeForm.containers(task.result)), status: task.status.rawValue,
            taskId: task.id, updatedAt: WireTime.nanoseconds(task.updatedAt))
    }
}
