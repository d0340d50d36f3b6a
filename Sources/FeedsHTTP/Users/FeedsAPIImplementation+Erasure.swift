import FeedsAPI
import FeedsCore

/// DeleteUsers, DeleteFeedUserData, RestoreUsers, ExportFeedUserData and ExportUsers, server
/// only. The deletions and exports answer with a task at once and run after the call (GetTask
/// shows how far they are, and an export's `result.url`); an account that goes is refused from
/// the call on, on every node, and its sockets here are closed.
extension FeedsAPIImplementation {
    func deleteUsers(_ input: Operations.DeleteUsers.Input) async throws -> Operations.DeleteUsers.Output {
        let request = try serverRequest("DeleteUsers is server-side only")
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let erasure = try UserErasure.deleteUsers(
            body.userIds, user: body.user, messages: body.messages, files: body.files, conversations: body.conversations,
            calls: body.calls, newChannelOwner: body.newChannelOwnerId, newCallOwner: body.newCallOwnerId)
        let task = try await queue(erasure, kind: "delete-users", request)
        return .created(.init(body: .json(.init(duration: request.duration, taskId: task.id))))
    }

    func deleteFeedUserData(_ input: Operations.DeleteFeedUserData.Input) async throws
        -> Operations.DeleteFeedUserData.Output
    {
        let request = try serverRequest("DeleteFeedUserData is server-side only")
        var hard = false
        if case .json(let body)? = input.body { hard = body.hardDelete ?? false }
        let erasure = try UserErasure.feedUserData(input.path.userId, hard: hard)
        let task = try await queue(erasure, kind: "delete-feed-user-data", request)
        return .created(.init(body: .json(.init(duration: request.duration, taskId: task.id))))
    }

    func restoreUsers(_ input: Operations.RestoreUsers.Input) async throws -> Operations.RestoreUsers.Output {
        let request = try serverRequest("RestoreUsers is server-side only")
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        try UserIDs.check(body.userIds)
        _ = try await store.restoreUsers(body.userIds, logger: request.logger)
        // Accepted again once the nodes reload their refused users (the same notification):
        // one may also be deactivated, which this node's set alone cannot tell.
        wakeTasks()
        return .created(.init(body: .json(.init(duration: request.duration))))
    }

    func exportFeedUserData(_ input: Operations.ExportFeedUserData.Input) async throws
        -> Operations.ExportFeedUserData.Output
    {
        let request = try serverRequest("ExportFeedUserData is server-side only")
        try UserIDs.check([input.path.userId])
        let task = try await store.queueExport([input.path.userId], kind: "export-feed-user-data", logger: request.logger)
        wakeTasks()
        return .created(.init(body: .json(.init(duration: request.duration, taskId: task.id))))
    }

    func exportUsers(_ input: Operations.ExportUsers.Input) async throws -> Operations.ExportUsers.Output {
        let request = try serverRequest("ExportUsers is server-side only")
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        // Stream's bound: an export of many users is one file.
        guard body.userIds.count <= 25 else { throw FeedsError.input("user_ids holds 1 to 25 users", field: "user_ids") }
        try UserIDs.check(body.userIds)
        let task = try await store.queueExport(body.userIds, kind: "export-users", logger: request.logger)
        wakeTasks()
        return .created(.init(body: .json(.init(duration: request.duration, taskId: task.id))))
    }

    private func queue(_ erasure: UserErasure, kind: String, _ request: AuthenticatedRequest) async throws -> BackgroundTask {
        let task = try await store.queueErasure(erasure, kind: kind, logger: request.logger)
        if erasure.account != nil {
            authenticator.deactivated.update(deactivated: erasure.userIDs, reactivated: [])
            realtime.hub.close(users: Set(erasure.userIDs), reason: "the user was deleted")
        }
        wakeTasks()
        return task
    }
}
