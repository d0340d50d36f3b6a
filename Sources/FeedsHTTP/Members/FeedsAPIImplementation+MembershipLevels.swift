import FeedsAPI
import FeedsCore
import FeedsWire

/// The membership level calls: server-side only, as on Stream. A level is given to a member with
/// UpdateFeedMembers' `membership_level`; what it lets them read is `ActivityReadable`'s.
extension FeedsAPIImplementation {
    func createMembershipLevel(_ input: Operations.CreateMembershipLevel.Input) async throws
        -> Operations.CreateMembershipLevel.Output
    {
        let request = try levelsRequest
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let change = try MembershipLevelChange(
            name: body.name, description: body.description, priority: body.priority.map(Int.init), tags: body.tags,
            custom: try body.custom.map { try FreeForm.object($0.additionalProperties) })
        let level = try await members.levels.createLevel(body.id, change, logger: request.logger)
        return .created(.init(body: .json(.init(duration: request.duration, membershipLevel: try Wire.membershipLevel(level)))))
    }

    func updateMembershipLevel(_ input: Operations.UpdateMembershipLevel.Input) async throws
        -> Operations.UpdateMembershipLevel.Output
    {
        let request = try levelsRequest
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        try MembershipLevelChange.checkID(input.path.id)
        let change = try MembershipLevelChange(
            name: body.name, description: body.description, priority: body.priority.map(Int.init), tags: body.tags,
            custom: try body.custom.map { try FreeForm.object($0.additionalProperties) })
        let level = try await members.levels.updateLevel(input.path.id, change, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, membershipLevel: try Wire.membershipLevel(level)))))
    }

    func deleteMembershipLevel(_ input: Operations.DeleteMembershipLevel.Input) async throws
        -> Operations.DeleteMembershipLevel.Output
    {
        let request = try levelsRequest
        try MembershipLevelChange.checkID(input.path.id)
        try await members.levels.deleteLevel(input.path.id, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    func queryMembershipLevels(_ input: Operations.QueryMembershipLevels.Input) async throws
        -> Operations.QueryMembershipLevels.Output
    {
        let request = try levelsRequest
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let query = try MembershipLevelQuery(
            filter: try body.filter.map { try recode($0) },
            sort: (body.sort ?? []).map { ($0.field, $0.direction.map(Int.init)) },
            limit: body.limit.map(Int.init), next: body.next, prev: body.prev)
        let page = try await members.levels.queryLevels(query, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        duration: request.duration, membershipLevels: try page.levels.map(Wire.membershipLevel),
                        next: page.next))))
    }

    private var levelsRequest: AuthenticatedRequest {
        get throws { try serverRequest("membership levels are configured server-side") }
    }
}
