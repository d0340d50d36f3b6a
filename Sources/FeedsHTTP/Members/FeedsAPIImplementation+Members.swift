import FeedsAPI
import FeedsCore
import FeedsWire

/// Feed members: UpdateFeedMembers by the feed's owner or the server, the invited user's answer,
/// and QueryFeedMembers for those who may read the feed. Who may read a `members` feed follows
/// from them (`FeedReadable`).
extension FeedsAPIImplementation {
    func updateFeedMembers(_ input: Operations.UpdateFeedMembers.Input) async throws -> Operations.UpdateFeedMembers.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let feed = try await memberFeed(input.path.feedGroupId, input.path.feedId, request: request)
        guard let operation = MemberOperation(rawValue: body.operation.rawValue) else {
            throw FeedsError.input("operation is upsert, remove or set", field: "operation")
        }
        let given = body.members ?? []
        guard given.count <= MemberChange.maxMembers else {
            throw FeedsError.input("members names at most \(MemberChange.maxMembers) members", field: "members")
        }
        guard operation == .set || !given.isEmpty else {
            throw FeedsError.input("\(operation.rawValue) names at least one member", field: "members")
        }
        let change = try await members.update(
            feed, operation, try Self.memberInputs(given, principal: request.principal), principal: request.principal,
            logger: request.logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        added: try change.added.map(Wire.feedMember), duration: request.duration,
                        removedIds: change.removedIDs, updated: try change.updated.map(Wire.feedMember)))))
    }

    func acceptFeedMemberInvite(_ input: Operations.AcceptFeedMemberInvite.Input) async throws
        -> Operations.AcceptFeedMemberInvite.Output
    {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let (member, duration) = try await answerInvite(input.path.feedGroupId, input.path.feedId, body, accept: true)
        return .ok(.init(body: .json(.init(duration: duration, member: member))))
    }

    func rejectFeedMemberInvite(_ input: Operations.RejectFeedMemberInvite.Input) async throws
        -> Operations.RejectFeedMemberInvite.Output
    {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let (member, duration) = try await answerInvite(input.path.feedGroupId, input.path.feedId, body, accept: false)
        return .ok(.init(body: .json(.init(duration: duration, member: member))))
    }

    func queryFeedMembers(_ input: Operations.QueryFeedMembers.Input) async throws -> Operations.QueryFeedMembers.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let feed = try await memberFeed(input.path.feedGroupId, input.path.feedId, request: request)
        let query = try MemberQuery(
            feed: feed, filter: try body.filter.map { try recode($0) },
            sort: (body.sort ?? []).map { ($0.field, $0.direction.map(Int.init)) }, limit: body.limit.map(Int.init),
            next: body.next, prev: body.prev)
        guard try await !store.feeds([feed], readableBy: nil, logger: request.logger).isEmpty else {
            throw FeedsError.notFound("feed \(feed) does not exist")
        }
        if let user = request.principal.userID, try await store.feeds([feed], readableBy: user, logger: request.logger).isEmpty {
            throw FeedsError.notAllowed("\(user) may not read \(feed)")
        }
        let page = try await memberStore.queryMembers(query, logger: request.logger)
        return .ok(
            .init(body: .json(.init(duration: request.duration, members: try page.members.map(Wire.feedMember), next: page.next)))
        )
    }

    /// The invited user (a user token's, or the one a server call names) answers their invite.
    private func answerInvite(
        _ group: String, _ id: String, _ body: Components.Schemas.FeedMemberInviteRequest, accept: Bool
    ) async throws -> (Components.Schemas.FeedMemberResponse, String) {
        let request = try request
        let feed = try await memberFeed(group, id, request: request)
        let user = try request.actingUser(body.userId ?? body.user?.id)
        let member = try await members.answer(feed, user: user, accept: accept, logger: request.logger)
        return (try Wire.feedMember(member), request.duration)
    }

    private func memberFeed(_ group: String, _ id: String, request: AuthenticatedRequest) async throws -> FeedID {
        let feed = try FeedID(group: group, id: id, field: "feed_id")
        try await feedGroups.require([feed], field: "feed_group_id", logger: request.logger)
        return feed
    }

    /// UpdateFeedMembers' (and GetOrCreateFeed's `data.members`) members, checked. Membership
    /// levels are given by the server only: they are what a member paid for.
    static func memberInputs(
        _ given: [Components.Schemas.FeedMemberRequest], field: String = "members", principal: Principal
    ) throws -> [FeedMemberInput] {
        try given.enumerated().map { index, member in
            let prefix = "\(field)[\(index)]."
            if member.membershipLevel != nil, principal.userID != nil {
                throw FeedsError.notAllowed("membership levels are given server-side (\(prefix)membership_level)")
            }
            return try FeedMemberInput(
                userID: member.userId, role: member.role, custom: try member.custom.map { try recode($0) },
                invite: member.invite ?? false, membershipLevel: member.membershipLevel, field: prefix)
        }
    }
}
