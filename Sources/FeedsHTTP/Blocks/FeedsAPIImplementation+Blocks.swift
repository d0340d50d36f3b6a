import FeedsAPI
import FeedsCore
import FeedsWire

/// BlockUsers, UnblockUsers and GetBlockedUsers. A user blocks for themselves; the server names
/// the user (`user_id` or `user`). What a block hides is the store's (`Unblocked`).
extension FeedsAPIImplementation {
    func blockUsers(_ input: Operations.BlockUsers.Input) async throws -> Operations.BlockUsers.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let user = try Self.actingUser(request, body.userId ?? body.user?.id)
        let block = try await store.block(try Self.blockedID(body.blockedUserId), by: user, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        blockedByUserId: block.user.id, blockedUserId: block.blocked.id,
                        createdAt: WireTime.nanoseconds(block.createdAt), duration: request.duration))))
    }

    func unblockUsers(_ input: Operations.UnblockUsers.Input) async throws -> Operations.UnblockUsers.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let user = try Self.actingUser(request, body.userId ?? body.user?.id)
        try await store.unblock(try Self.blockedID(body.blockedUserId), by: user, logger: request.logger)
        return .created(.init(body: .json(.init(duration: request.duration))))
    }

    func getBlockedUsers(_ input: Operations.GetBlockedUsers.Input) async throws -> Operations.GetBlockedUsers.Output {
        let request = try request
        let user = try Self.actingUser(request, input.query.userId)
        let blocks = try await store.blocks(by: user, limit: 100, logger: request.logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        blocks: try blocks.map { block in
                            .init(
                                blockedUser: try Wire.user(block.blocked), blockedUserId: block.blocked.id,
                                createdAt: WireTime.nanoseconds(block.createdAt), user: try Wire.user(block.user),
                                userId: block.user.id)
                        }, duration: request.duration))))
    }

    private static func blockedID(_ id: String) throws -> String {
        guard (1...255).contains(id.utf8.count) else {
            throw FeedsError.input("blocked_user_id is 1 to 255 characters", field: "blocked_user_id")
        }
        return id
    }
}
