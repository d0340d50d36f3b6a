import FeedsAPI
import FeedsCore
import FeedsWire

/// DeactivateUser(s) and ReactivateUser(s), server only: a deactivated user's tokens are refused
/// (403) and their sockets closed, on every node, until they are reactivated; what they posted
/// stays. The batch calls answer with a completed task (GetTask).
extension FeedsAPIImplementation {
    func deactivateUser(_ input: Operations.DeactivateUser.Input) async throws -> Operations.DeactivateUser.Output {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        try Self.refuseContent(body.markMessagesDeleted, "mark_messages_deleted")
        let user = try await setDeactivated([input.path.userId], true, recordTask: false).users[0]
        return .created(.init(body: .json(.init(duration: try request.duration, user: try Self.wire(user)))))
    }

    func deactivateUsers(_ input: Operations.DeactivateUsers.Input) async throws -> Operations.DeactivateUsers.Output {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        try Self.refuseContent(body.markMessagesDeleted, "mark_messages_deleted")
        try Self.refuseContent(body.markChannelsDeleted, "mark_channels_deleted")
        let task = try await setDeactivated(body.userIds, true, recordTask: true).task
        return .created(.init(body: .json(.init(duration: try request.duration, taskId: task?.id ?? ""))))
    }

    func reactivateUser(_ input: Operations.ReactivateUser.Input) async throws -> Operations.ReactivateUser.Output {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        try Self.refuseContent(body.restoreMessages, "restore_messages")
        if body.name != nil { throw FeedsError.input("name is set with UpdateUsersPartial", field: "name") }
        let user = try await setDeactivated([input.path.userId], false, recordTask: false).users[0]
        return .created(.init(body: .json(.init(duration: try request.duration, user: try Self.wire(user)))))
    }

    func reactivateUsers(_ input: Operations.ReactivateUsers.Input) async throws -> Operations.ReactivateUsers.Output {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        try Self.refuseContent(body.restoreMessages, "restore_messages")
        try Self.refuseContent(body.restoreChannels, "restore_channels")
        let task = try await setDeactivated(body.userIds, false, recordTask: true).task
        return .created(.init(body: .json(.init(duration: try request.duration, taskId: task?.id ?? ""))))
    }

    /// The change, then this node's set at once (the other nodes hear of it from the database)
    /// and the sockets of the deactivated on this node closed.
    private func setDeactivated(_ ids: [String], _ deactivated: Bool, recordTask: Bool) async throws
        -> (users: [UserActivation], task: BackgroundTask?)
    {
        let request = try request
        guard request.principal == .server else {
            throw FeedsError.notAllowed("only the server deactivates and reactivates users")
        }
        try UserIDs.check(ids)
        let changed = try await store.setDeactivated(ids, deactivated, recordTask: recordTask, logger: request.logger)
        authenticator.deactivated.update(deactivated: deactivated ? ids : [], reactivated: deactivated ? [] : ids)
        if deactivated { realtime.hub.close(users: Set(ids), reason: "the user was deactivated") }
        return changed
    }

    /// Feeds keeps what a deactivated user posted; Chat's options to take it away are refused, not ignored.
    private static func refuseContent(_ flag: Bool?, _ field: String) throws {
        if flag == true {
            throw FeedsError.input(
                "\(field) is not supported: a deactivated user's activities stay (DeleteActivities removes them)", field: field)
        }
    }

    private static func wire(_ activation: UserActivation) throws -> Components.Schemas.UserResponse {
        var user = try Wire.user(activation.user)
        user.deactivatedAt = activation.deactivatedAt.map(WireTime.nanoseconds)
        return user
    }
}
