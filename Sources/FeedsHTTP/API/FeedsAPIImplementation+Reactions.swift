import FeedsAPI
import FeedsCore
import FeedsServices
import FeedsWire

/// The reaction calls, to activities and to comments. A user acts as themselves; the server names
/// the user (`user_id`, or `user.id`). The workflow is the `Reactions` service's.
extension FeedsAPIImplementation {
    func addActivityReaction(_ input: Operations.AddActivityReaction.Input) async throws
        -> Operations.AddActivityReaction.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let (user, reaction) = try Self.reaction(
            request, type: body._type, custom: try body.custom.map { try FreeForm.object($0.additionalProperties) },
            enforceUnique: body.enforceUnique, targetFeeds: body.targetFeeds,
            userID: body.userId ?? body.user?.id)
        let (stored, activity) = try await reactions.add(
            reaction, toActivity: input.path.id, userID: user,
            notify: NotificationRequest(
                create: body.createNotificationActivity, copyCustom: body.copyCustomToNotification,
                skipPush: body.skipPush),
            principal: request.principal, logger: request.logger)
        return .created(
            .init(
                body: .json(.init(activity: try wire(activity), duration: request.duration, reaction: try Wire.reaction(stored))))
        )
    }

    func deleteActivityReaction(_ input: Operations.DeleteActivityReaction.Input) async throws
        -> Operations.DeleteActivityReaction.Output
    {
        let request = try request
        let user = try Self.actingUser(request, input.query.userId)
        let type = try ReactionInput.checkedType(input.path._type, field: "type")
        let (removed, activity) = try await reactions.delete(
            type, fromActivity: input.path.id, userID: user, principal: request.principal, logger: request.logger)
        return .ok(
            .init(
                body: .json(.init(activity: try wire(activity), duration: request.duration, reaction: try Wire.reaction(removed)))
            ))
    }

    func queryActivityReactions(_ input: Operations.QueryActivityReactions.Input) async throws
        -> Operations.QueryActivityReactions.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let page = try KeysetPage(
            sort: (body.sort ?? []).map { ($0.field, $0.direction.map(Int.init)) }, limit: body.limit.map(Int.init),
            next: body.next, prev: body.prev, kind: ReactionQuery.cursorKind, keyCount: 2, what: "reactions")
        let query = try ReactionQuery(
            activityID: input.path.id, filter: try body.filter.map { try recode($0) }, page: page)
        let found = try await store.queryReactions(query, by: request.principal, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        duration: request.duration, next: found.next?.token(kind: ReactionQuery.cursorKind),
                        reactions: try found.reactions.map(Wire.reaction)))))
    }

    func addCommentReaction(_ input: Operations.AddCommentReaction.Input) async throws -> Operations.AddCommentReaction.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let (user, reaction) = try Self.reaction(
            request, type: body._type, custom: try body.custom.map { try FreeForm.object($0.additionalProperties) },
            enforceUnique: body.enforceUnique, targetFeeds: body.targetFeeds,
            userID: body.userId ?? body.user?.id)
        let (stored, comment) = try await reactions.add(
            reaction, toComment: input.path.id, userID: user,
            notify: NotificationRequest(
                create: body.createNotificationActivity, copyCustom: body.copyCustomToNotification,
                skipPush: body.skipPush),
            principal: request.principal, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        comment: try await wire([comment], request)[0], duration: request.duration,
                        reaction: try Wire.reaction(stored)))))
    }

    func deleteCommentReaction(_ input: Operations.DeleteCommentReaction.Input) async throws
        -> Operations.DeleteCommentReaction.Output
    {
        let request = try request
        let user = try Self.actingUser(request, input.query.userId)
        let type = try ReactionInput.checkedType(input.path._type, field: "type")
        let (removed, comment) = try await reactions.delete(
            type, fromComment: input.path.id, userID: user, principal: request.principal, logger: request.logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        comment: try await wire([comment], request)[0], duration: request.duration,
                        reaction: try Wire.reaction(removed)))))
    }

    func queryCommentReactions(_ input: Operations.QueryCommentReactions.Input) async throws
        -> Operations.QueryCommentReactions.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let page = try KeysetPage(
            sort: (body.sort ?? []).map { ($0.field, $0.direction.map(Int.init)) }, limit: body.limit.map(Int.init),
            next: body.next, prev: body.prev, kind: ReactionQuery.cursorKind, keyCount: 2, what: "reactions")
        let query = try ReactionQuery(
            activityID: "", commentID: input.path.id, filter: try body.filter.map { try recode($0) }, page: page)
        let found = try await store.queryReactions(query, by: request.principal, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        duration: request.duration, next: found.next?.token(kind: ReactionQuery.cursorKind),
                        reactions: try found.reactions.map(Wire.reaction)))))
    }

    func batchQueryActivityReactions(_ input: Operations.BatchQueryActivityReactions.Input) async throws
        -> Operations.BatchQueryActivityReactions.Output
    {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let (reactions, next, request) = try await batchQuery(
            body.activityIds, ofComments: false, user: body.userId ?? body.user?.id, filter: body.filter, sort: body.sort,
            limit: body.limit, next: body.next, prev: body.prev)
        return .created(.init(body: .json(.init(duration: request.duration, next: next, reactions: reactions))))
    }

    func batchQueryCommentReactions(_ input: Operations.BatchQueryCommentReactions.Input) async throws
        -> Operations.BatchQueryCommentReactions.Output
    {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let (reactions, next, request) = try await batchQuery(
            body.commentIds, ofComments: true, user: body.userId ?? body.user?.id, filter: body.filter, sort: body.sort,
            limit: body.limit, next: body.next, prev: body.prev)
        return .created(.init(body: .json(.init(duration: request.duration, next: next, reactions: reactions))))
    }

    /// One user's reactions (the caller's, or the one the server names) across the objects of `ids`.
    private func batchQuery<Filter: Encodable>(
        _ ids: [String], ofComments: Bool, user named: String?, filter: Filter?, sort: [Components.Schemas.SortParamRequest]?,
        limit: Int32?, next: String?, prev: String?
    ) async throws -> ([Components.Schemas.FeedsReactionResponse], String?, AuthenticatedRequest) {
        let request = try request
        let user = try Self.actingUser(request, named)
        let page = try KeysetPage(
            sort: (sort ?? []).map { ($0.field, $0.direction.map(Int.init)) }, limit: limit.map(Int.init), next: next, prev: prev,
            kind: ReactionQuery.cursorKind, keyCount: 3, what: "reactions")
        let query = try ReactionQuery(
            batch: ids, ofComments: ofComments, userID: user, filter: try filter.map { try recode($0) }, page: page)
        let found = try await store.queryReactions(query, by: request.principal, logger: request.logger)
        return (try found.reactions.map(Wire.reaction), found.next?.token(kind: ReactionQuery.cursorKind), request)
    }

    /// A reaction request's user and reaction, checked; sharing is refused.
    static func reaction(
        _ request: AuthenticatedRequest, type: String, custom: JSONObject?, enforceUnique: Bool?, targetFeeds: [String]?,
        userID: String?
    ) throws -> (user: String, reaction: ReactionInput) {
        if targetFeeds?.isEmpty == false {
            throw FeedsError.input("sharing a reaction to target_feeds is not supported", field: "target_feeds")
        }
        return (try actingUser(request, userID), try ReactionInput(type: type, custom: custom, enforceUnique: enforceUnique))
    }

    /// The user a request acts as: the token's user, or the one the server names.
    static func actingUser(_ request: AuthenticatedRequest, _ requested: String?) throws -> String {
        guard let user = try request.principal.actingUser(requested: requested) else {
            throw FeedsError.input("a server token names the user: give user_id", field: "user_id")
        }
        guard (1...255).contains(user.utf8.count) else { throw FeedsError.input("user_id is 1 to 255 bytes", field: "user_id") }
        return user
    }
}
