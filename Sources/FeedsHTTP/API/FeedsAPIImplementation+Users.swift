import FeedsAPI
import FeedsCore
import FeedsWire
import Foundation

extension FeedsAPIImplementation {
    func updateUsers(_ input: Operations.UpdateUsers.Input) async throws -> Operations.UpdateUsers.Output {
        let request = try request
        guard request.principal == .server else { throw FeedsError.notAllowed("only a server token may update users") }
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let inputs = try body.users.additionalProperties.sorted { $0.key < $1.key }.map { key, user -> UserInput in
            // UserRequest is nullable where it is optional (an SDK's `user: null`); here a user is required.
            guard let user else { throw FeedsError.input("users.\(key) must be a user, not null", field: "users.\(key)") }
            guard key == user.id, !user.id.isEmpty, user.id.utf8.count <= 255 else {
                throw FeedsError.input("users must be keyed by their id (\"\(key)\" holds \"\(user.id)\")", field: "users.\(key)")
            }
            return UserInput(
                id: user.id, name: user.name, image: user.image, role: user.role, language: user.language, teams: user.teams,
                custom: try user.custom.map { try recode($0) }
            )
        }
        let users = try await store.upsertUsers(inputs, logger: request.logger)
        let byID = try Dictionary(uniqueKeysWithValues: users.map { ($0.id, try Wire.fullUser($0)) })
        return .created(
            .init(
                body: .json(
                    .init(duration: request.duration, membershipDeletionTaskId: "", users: .init(additionalProperties: byID))))
        )
    }

    /// UpdateUsersPartial: the server patches any user; a user token its own, but not its role or
    /// teams. All or none; each user's row is locked while its patch applies.
    func updateUsersPartial(_ input: Operations.UpdateUsersPartial.Input) async throws -> Operations.UpdateUsersPartial.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        guard (1...UserPatch.maxUsers).contains(body.users.count) else {
            throw FeedsError.input("users holds 1 to \(UserPatch.maxUsers) patches", field: "users")
        }
        let patches = try body.users.enumerated().map { index, user in
            guard (1...255).contains(user.id.utf8.count) else {
                throw FeedsError.input("a user id is 1 to 255 characters", field: "users[\(index)].id")
            }
            let patch = UserPatch(id: user.id, set: try user.set.map { try recode($0) } ?? [:], unset: user.unset ?? [])
            if let caller = request.principal.userID {
                guard caller == user.id else { throw FeedsError.notAllowed("\(caller) may update only their own user") }
                guard !patch.changesPrivileges else { throw FeedsError.notAllowed("only a server token changes a role or teams") }
            }
            return patch
        }
        let users = try await store.updateUsersPartial(patches, logger: request.logger)
        let byID = try Dictionary(uniqueKeysWithValues: users.map { ($0.id, try Wire.fullUser($0)) })
        return .ok(
            .init(body: .json(.init(duration: request.duration, membershipDeletionTaskId: "", users: .init(additionalProperties: byID)))))
    }

    /// QueryUsers: the JSON `payload` query parameter holds the query, as Stream's SDKs send it.
    /// Any signed-in caller may list users, as on Stream; an absent payload lists them all.
    func queryUsers(_ input: Operations.QueryUsers.Input) async throws -> Operations.QueryUsers.Output {
        let request = try request
        var query = UserQuery()
        if let text = input.query.payload, !text.isEmpty {
            let payload: Components.Schemas.QueryUsersPayload
            do {
                payload = try JSONDecoder().decode(Components.Schemas.QueryUsersPayload.self, from: Data(text.utf8))
            } catch {
                throw FeedsError.input("payload must be a QueryUsers JSON object with filter_conditions", field: "payload")
            }
            query = try UserQuery(
                filter: try recode(payload.filterConditions),
                sort: (payload.sort ?? []).map { ($0.field, $0.direction.map(Int.init)) },
                limit: payload.limit.map(Int.init), offset: payload.offset.map(Int.init))
        }
        let users = try await store.queryUsers(query, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, users: try users.map(Wire.fullUser)))))
    }
}
