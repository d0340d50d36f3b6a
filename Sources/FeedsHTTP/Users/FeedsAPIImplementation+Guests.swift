import FeedsAPI
import FeedsCore
import FeedsWire
import Foundation

/// CreateGuest: when the app allows guests (UpdateApp `guest_user_creation_disabled: false`),
/// anyone with the API key, anonymous as the SDKs' `connectGuest` calls it, gets a new user of
/// role `guest` and its token. An id that is taken is refused: a guest never gets a token for a
/// user who exists.
extension FeedsAPIImplementation {
    func createGuest(_ input: Operations.CreateGuest.Input) async throws -> Operations.CreateGuest.Output {
        guard let scope = RequestScope.current else { throw FeedsError(.internal, "handler ran outside a request scope") }
        guard !uploads.settings.current.guestUserCreationDisabled else {
            throw FeedsError.notAllowed("guest users are disabled for this app (guest_user_creation_disabled)")
        }
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        guard let given = body.user else { throw FeedsError.input("user is required", field: "user") }
        let id = given.id.isEmpty ? "guest-\(UUID().lowercasedString)" : given.id
        // A guest posts to their own feeds: the id must make a feed id (`user:<id>`).
        _ = try FeedID(group: "user", id: id, field: "user.id")
        if let role = given.role, role != "guest" { throw FeedsError.input("a guest's role is guest", field: "user.role") }
        if given.teams?.isEmpty == false { throw FeedsError.input("a guest is in no team", field: "user.teams") }
        let details = UserInput(
            id: id, name: given.name, image: given.image, role: "guest", language: given.language,
            custom: try given.custom.map { try recode($0) })
        guard let user = try await store.createUser(details, logger: scope.logger) else {
            throw FeedsError.conflict("user \(id) exists: a guest takes a new id", field: "user.id")
        }
        let token = try await authenticator.token(userID: user.id)
        return .created(.init(body: .json(.init(accessToken: token, duration: scope.duration, user: try Wire.user(user)))))
    }
}
