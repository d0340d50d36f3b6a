import FeedsAuth
import FeedsCore
import Foundation
import Logging
import NIOCore

/// `GET /api/v2/connect` as Stream's client SDKs speak it, once upgraded: the first message
/// carries the token and the user (`{"token":…,"user_details":{"id":…}}`), the server answers
/// `connection.ok` with the connection's id (which watch requests name) and then sends the events
/// of the feeds it watches, and `health.check` both ways. A refusal is a `connection.error` with
/// Stream's error (code 40 for an expired token, which the SDKs refresh and reconnect on), then
/// a normal close, so that the SDKs do not retry a bad token in a loop. `RealtimeSocketHandler`
/// runs a socket; this is what it needs of the server.
package struct RealtimeEndpoint<Store: ActivityStore>: Sendable {
    package let hub: RealtimeHub
    package let authenticator: Authenticator
    package let store: Store
    /// How long a new connection may take to upgrade and send its first message.
    package var authTimeout: Duration = .seconds(10)
    /// The WebSocket port's connections that have not authenticated yet.
    package var pending = PendingSockets(limit: 1_000, perAddress: 100)
    /// How long a closed socket waits for the client's close frame before it hangs up.
    package var closeGrace: TimeAmount = .seconds(2)
    package var now: @Sendable () -> Date = { Date() }
    /// What a failed sign-in tells the client: the server's error classification, which knows
    /// the database's errors.
    package var explain: @Sendable (any Error) -> FeedsError

    package init(
        hub: RealtimeHub, authenticator: Authenticator, store: Store, authTimeout: Duration = .seconds(10),
        pending: PendingSockets = PendingSockets(limit: 1_000, perAddress: 100),
        explain: @escaping @Sendable (any Error) -> FeedsError = { ($0 as? FeedsError) ?? FeedsError(.internal, "\($0)") }
    ) {
        (self.hub, self.authenticator, self.store, self.authTimeout, self.pending) = (
            hub, authenticator, store, authTimeout, pending
        )
        self.explain = explain
    }

    /// The largest message a client may send: the auth message with the user's custom data.
    package static var maxMessage: Int { 64 << 10 }

    /// The user the auth message names, once its token says it may be them (a user token for that
    /// user); the user is created, or its name, image and custom data updated, as connectUser does.
    package func authenticate(_ text: String, query: [String: String], logger: Logger) async throws -> User {
        guard case .object(let auth) = try? JSONValue(parsing: text) else {
            throw FeedsError.input("the first message is the JSON auth message: token and user_details", field: "token")
        }
        guard case .string(let token) = auth["token"] else { throw FeedsError.input("token is missing", field: "token") }
        let principal = try authenticator.authenticate(
            apiKey: query["api_key"], authorization: token, authType: query["stream-auth-type"] ?? "jwt")
        guard case .object(let details) = auth["user_details"], case .string(let userID) = details["id"] else {
            throw FeedsError.input("user_details.id is missing", field: "user_details.id")
        }
        guard principal.userID == userID else {
            throw FeedsError(.tokenSignature, "the token is not \(userID)'s: connect with a user token for user_details.id")
        }
        return try await upsert(userID, details, logger: logger)
    }

    private func upsert(_ id: String, _ details: JSONObject, logger: Logger) async throws -> User {
        var query = UserQuery(limit: 1)
        query.ids = [id]
        let existing = try await store.queryUsers(query, logger: logger).first
        var input = UserInput(
            id: id, name: existing?.name, image: existing?.image, role: existing?.role, language: existing?.language,
            teams: existing?.teams, custom: existing?.custom)
        if case .string(let name) = details["name"] { input.name = name }
        if case .string(let image) = details["image"] { input.image = image }
        if case .object(let custom) = details["custom"] { input.custom = custom }
        if let existing, input.name == existing.name, input.image == existing.image, input.custom == existing.custom {
            return existing
        }
        guard let user = try await store.upsertUsers([input], logger: logger).first else {
            throw FeedsError(.internal, "user \(id) was not written")
        }
        return user
    }
}
