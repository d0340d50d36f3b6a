import FeedsAPI
import FeedsCore

/// DeleteUsers, DeleteFeedUserData and RestoreUsers, server only. The deletions answer with a
/// task at once and run after the call (GetTask shows how far they are); an account that goes
/// is refused from the call on, on every node, and its sockets here are closed.
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
