import FeedsAPI
import FeedsCore
import FeedsServices
import FeedsWire

/// Follow, Unfollow, FollowBatch, GetOrCreateFollows, QueryFollows, AcceptFollow and RejectFollow;
/// the workflow is the `Follows` service's.
extension FeedsAPIImplementation {
    func follow(_ input: Operations.Follow.Input) async throws -> Operations.Follow.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let asked = (
            try Self.input(body),
            NotificationRequest(
                create: body.createNotificationActivity, copyCustom: body.copyCustomToNotification,
                skipPush: body.skipPush)
        )
        let follow = try await follows.follow([asked], batch: false, principal: request.principal, logger: request.logger)
        guard let made = follow.first?.follow else { throw FeedsError(.internal, "the follow was not returned") }
        return .created(
            .init(body: .json(.init(duration: request.duration, follow: try Wire.follow(made, viewer: request.principal)))))
    }

    func followBatch(_ input: Operations.FollowBatch.Input) async throws -> Operations.FollowBatch.Output {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        return .created(.init(body: .json(try await followBatch(body))))
    }

    /// GetOrCreateFollows: FollowBatch as this server answers it, existing follows returned as they
    /// are and only new ones announced.
    func getOrCreateFollows(_ input: Operations.GetOrCreateFollows.Input) async throws -> Operations.GetOrCreateFollows.Output {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        return .created(.init(body: .json(try await followBatch(body))))
    }

    /// GetOrCreateFollow: FollowBatch's rule for one follow (the existing one as it is, only a new one announced).
    func getOrCreateFollow(_ input: Operations.GetOrCreateFollow.Input) async throws -> Operations.GetOrCreateFollow.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let asked = (
            try Self.input(body, field: ""),
            NotificationRequest(
                create: body.createNotificationActivity, copyCustom: body.copyCustomToNotification,
                skipPush: body.skipPush)
        )
        let made = try await follows.follow([asked], batch: true, principal: request.principal, logger: request.logger)
        guard let first = made.first else { throw FeedsError(.internal, "the follow was neither made nor found") }
        return .created(
            .init(
                body: .json(
                    .init(
                        created: first.created, duration: request.duration,
                        follow: try Wire.follow(first.follow, viewer: request.principal),
                        notificationCreated: first.created && asked.1 != nil))))
    }

    /// GetOrCreateUnfollow: Unfollow that is no error when there is no such follow.
    func getOrCreateUnfollow(_ input: Operations.GetOrCreateUnfollow.Input) async throws
        -> Operations.GetOrCreateUnfollow.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let pair = UnfollowPair(
            source: try FeedID(body.source, field: "source"), target: try FeedID(body.target, field: "target"),
            keepHistory: body.keepHistory ?? false)
        let ended = try await follows.unfollow([pair], skipMissing: true, principal: request.principal, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        deleted: !ended.isEmpty, duration: request.duration,
                        follow: try ended.first.map { try Wire.follow($0, viewer: request.principal) }))))
    }

    private func followBatch(_ body: Components.Schemas.FollowBatchRequest) async throws -> Components.Schemas.FollowBatchResponse
    {
        let request = try request
        guard (1...1000).contains(body.follows.count) else {
            throw FeedsError.input("follows takes 1 to 1,000 follows", field: "follows")
        }
        let asked = try body.follows.enumerated().map { index, follow in
            (
                try Self.input(follow, field: "follows[\(index)]."),
                NotificationRequest(
                    create: follow.createNotificationActivity, copyCustom: follow.copyCustomToNotification,
                    skipPush: follow.skipPush)
            )
        }
        let made = try await follows.follow(asked, batch: true, principal: request.principal, logger: request.logger)
        let wire = try made.map { (try Wire.follow($0.follow, viewer: request.principal), $0.created) }
        return .init(created: wire.filter(\.1).map(\.0), duration: request.duration, follows: wire.map(\.0))
    }

    func unfollow(_ input: Operations.Unfollow.Input) async throws -> Operations.Unfollow.Output {
        let request = try request
        let (source, target) = (try FeedID(input.path.source, field: "source"), try FeedID(input.path.target, field: "target"))
        let follow = try await follows.unfollow(
            source: source, target: target, keepHistory: input.query.keepHistory ?? false, principal: request.principal,
            logger: request.logger)
        return .ok(
            .init(body: .json(.init(duration: request.duration, follow: try Wire.follow(follow, viewer: request.principal)))))
    }

    /// UpdateFollow: custom data and push preference by the follower, follower role by the followed.
    func updateFollow(_ input: Operations.UpdateFollow.Input) async throws -> Operations.UpdateFollow.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let change = try FollowChange(
            custom: try body.custom.map { try recode($0) }, pushPreference: body.pushPreference?.rawValue,
            followerRole: body.followerRole, status: body.status.flatMap { Follow.Status(rawValue: $0.rawValue) })
        let follow = try await follows.update(
            source: try FeedID(body.source, field: "source"), target: try FeedID(body.target, field: "target"), change,
            principal: request.principal, logger: request.logger)
        return .ok(
            .init(body: .json(.init(duration: request.duration, follow: try Wire.follow(follow, viewer: request.principal)))))
    }

    func unfollowBatch(_ input: Operations.UnfollowBatch.Input) async throws -> Operations.UnfollowBatch.Output {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        return .created(.init(body: .json(try await unfollowBatch(body, skipMissing: false))))
    }

    /// GetOrCreateUnfollows: UnfollowBatch that leaves out follows that do not exist.
    func getOrCreateUnfollows(_ input: Operations.GetOrCreateUnfollows.Input) async throws
        -> Operations.GetOrCreateUnfollows.Output
    {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        return .created(.init(body: .json(try await unfollowBatch(body, skipMissing: true))))
    }

    private func unfollowBatch(_ body: Components.Schemas.UnfollowBatchRequest, skipMissing: Bool) async throws
        -> Components.Schemas.UnfollowBatchResponse
    {
        let request = try request
        guard (1...UnfollowPair.maxBatch).contains(body.follows.count) else {
            throw FeedsError.input("follows takes 1 to 1,000 follows", field: "follows")
        }
        let pairs = try body.follows.enumerated().map { index, pair in
            UnfollowPair(
                source: try FeedID(pair.source, field: "follows[\(index)].source"),
                target: try FeedID(pair.target, field: "follows[\(index)].target"), keepHistory: pair.keepHistory ?? false)
        }
        let ended = try await follows.unfollow(
            pairs, skipMissing: skipMissing, principal: request.principal, logger: request.logger)
        return .init(duration: request.duration, follows: try ended.map { try Wire.follow($0, viewer: request.principal) })
    }

    func acceptFollow(_ input: Operations.AcceptFollow.Input) async throws -> Operations.AcceptFollow.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        if let role = body.followerRole, role.utf8.count > 255 {
            throw FeedsError.input("follower_role takes at most 255 characters", field: "follower_role")
        }
        let follow = try await follows.answer(
            source: try FeedID(body.source, field: "source"), target: try FeedID(body.target, field: "target"), accept: true,
            followerRole: body.followerRole, principal: request.principal, logger: request.logger)
        return .created(
            .init(body: .json(.init(duration: request.duration, follow: try Wire.follow(follow, viewer: request.principal)))))
    }

    func rejectFollow(_ input: Operations.RejectFollow.Input) async throws -> Operations.RejectFollow.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let follow = try await follows.answer(
            source: try FeedID(body.source, field: "source"), target: try FeedID(body.target, field: "target"), accept: false,
            followerRole: nil, principal: request.principal, logger: request.logger)
        return .created(
            .init(body: .json(.init(duration: request.duration, follow: try Wire.follow(follow, viewer: request.principal)))))
    }

    func queryFollows(_ input: Operations.QueryFollows.Input) async throws -> Operations.QueryFollows.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let query = try FollowQuery(
            filter: try body.filter.map { try recode($0) },
            sort: (body.sort ?? []).map { ($0.field, $0.direction.map(Int.init)) },
            limit: body.limit.map(Int.init), next: body.next, prev: body.prev)
        var page = try await store.queryFollows(query, viewer: request.principal, logger: request.logger)
        page.follows = try await withOwnData(page.follows, reader: request.principal.userID, request: request)
        return .created(
            .init(
                body: .json(
                    .init(
                        duration: request.duration,
                        follows: try page.follows.map { try Wire.follow($0, viewer: request.principal) },
                        next: page.next?.token))))
    }

    /// A follow as the domain takes it; users' `status` is the target's visibility's to decide.
    static func input(_ body: Components.Schemas.FollowRequest, field: String = "") throws -> FollowInput {
        if body.createUsers != nil, !field.isEmpty {
            throw FeedsError.input("create_users is set on the batch, not on each follow", field: field + "create_users")
        }
        return try FollowInput(
            source: body.source, target: body.target, copyLimit: body.activityCopyLimit.map(Int.init),
            status: body.status.flatMap { Follow.Status(rawValue: $0.rawValue) }, pushPreference: body.pushPreference?.rawValue,
            custom: try body.custom.map { try recode($0) }, field: field)
    }
}
