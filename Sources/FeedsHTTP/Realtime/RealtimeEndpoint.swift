import FeedsCore
import Foundation
import Logging
import NIOCore
import NIOWebSocket
import WSCore

/// `GET /api/v2/connect` once upgraded, as Stream's client SDKs speak it: the first message
/// carries the token and the user (`{"token":…,"user_details":{"id":…}}`), the server answers
/// `connection.ok` with the connection's id (which watch requests name) and then sends the events
/// of the feeds it watches, and `health.check` both ways. A refusal is a `connection.error` with
/// Stream's error (code 40 for an expired token, which the SDKs refresh and reconnect on), then
/// a normal close, so that the SDKs do not retry a bad token in a loop.
struct RealtimeEndpoint<Store: ActivityStore>: Sendable {
    let hub: RealtimeHub
    let authenticator: Authenticator
    let store: Store
    /// How long a new socket may take to send its first message.
    let authTimeout: Duration
    let now: @Sendable () -> Date

    /// The largest message a client may send: the auth message with the user's custom data.
    static var maxMessage: Int { 64 << 10 }

    func serve(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, query: [String: String], logger: Logger
    ) async {
        let timer = Task {
            try await Task.sleep(for: authTimeout)
            try? await outbound.close(.policyViolation, reason: "no auth message within \(authTimeout)")
        }
        var messages = inbound.messages(maxSize: Self.maxMessage).makeAsyncIterator()
        let first = try? await messages.next()
        timer.cancel()
        guard let first else { return }

        let user: User
        do {
            user = try await authenticate(first, query: query, logger: logger)
        } catch {
            let refusal = (error as? FeedsError) ?? ErrorClassifier.classify(error)
            logger.debug("real-time connection refused", metadata: ["error": "\(refusal.message)"])
            try? await Self.write(RealtimeMessages.connectionError(refusal, at: now()), to: outbound)
            try? await outbound.close(.normalClosure, reason: refusal.message)
            return
        }

        let (id, outgoing) = hub.connect(userID: user.id)
        defer { hub.disconnect(id) }
        let writer = Task {
            do {
                try await Self.write(RealtimeMessages.connectionOK(connectionID: id, user: user, at: now()), to: outbound)
                for await message in outgoing {
                    switch message {
                    case .text(let buffer): try await Self.write(buffer, to: outbound)
                    case .close(let code, let reason):
                        try await outbound.close(.init(codeNumber: Int(code)), reason: reason)
                        return
                    }
                }
            } catch {
                logger.debug("real-time write failed", metadata: ["error": "\(error)"])
            }
        }
        defer { writer.cancel() }
        // The client's health checks (`[{"type":"health.check",…}]` from the JS SDK) are answered
        // with one of ours; anything else a client sends is ignored.
        while let message = try? await messages.next() {
            guard case .text(let text) = message, text.contains("health.check") else { continue }
            hub.send(id, .text(ByteBuffer(bytes: RealtimeMessages.healthCheck(connectionID: id, at: now()))))
        }
    }

    /// The user the auth message names, once its token says it may be them (a user token for that
    /// user); the user is created, or its name, image and custom data updated, as connectUser does.
    private func authenticate(_ message: WebSocketMessage, query: [String: String], logger: Logger) async throws -> User {
        guard case .text(let text) = message, case .object(let auth) = try? JSONValue(parsing: text) else {
            throw FeedsError.input("the first message is the JSON auth message: token and user_details", field: "token")
        }
        guard case .string(let token) = auth["token"] else { throw FeedsError.input("token is missing", field: "token") }
        let principal = try await authenticator.authenticate(
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

    /// A text frame of JSON bytes, without a detour through `String`.
    static func write(_ bytes: [UInt8], to outbound: WebSocketOutboundWriter) async throws {
        try await write(ByteBuffer(bytes: bytes), to: outbound)
    }

    static func write(_ buffer: ByteBuffer, to outbound: WebSocketOutboundWriter) async throws {
        try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: buffer)))
    }
}
