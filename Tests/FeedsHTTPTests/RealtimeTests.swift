import FeedsCore
import FeedsHTTP
import FeedsLoadTest
import FeedsPostgres
import FeedsTestSupport
import Foundation
import NIOCore
import PostgresNIO
import Testing

@testable import FeedsAuth

/// `/api/v2/connect` through a real WebSocket client: the handshake Stream's SDKs make, refusals
/// in Stream's error shape, watching feeds and the events of each write kind, what a watcher must
/// never see, a second node, and a lost listener. Waits are hang guards, never measurements.
@Suite struct RealtimeTests {
    @Test func aClientConnectsWithItsTokenAndHealthChecksFlowBothWays() async throws {
        try await TestServer.run(configure: { $0.healthCheckInterval = .seconds(1) }) { server in
            let (socket, inbox) = try await server.socket("alice", details: #","name":"Alice""#)
            let ok = try await inbox.next()
            #expect(
                ok["type"].string == "connection.ok" && ok["me"]["id"].string == "alice" && ok["me"]["name"].string == "Alice")
            let id = try #require(ok["connection_id"].string)
            #expect(ok["created_at"].int != nil && ok["me"]["role"].string == "user")
            // The JS SDK's health check is an array; the answer names the connection.
            socket.send(#"[{"type":"health.check","client_id":"alice-1"}]"#)
            let check = try await inbox.next()
            #expect(check["type"].string == "health.check" && check["connection_id"].string == id)
            // The server's own, every interval, without asking.
            let unasked = try await inbox.next()
            #expect(unasked["type"].string == "health.check" && unasked["connection_id"].string == id)
            try await socket.hangUp()
        }
    }

    @Test func badTokensAreRefusedInStreamsErrorShapeAndClosed() async throws {
        try await TestServer.run { server in
            let expired = try await server.authenticator.token(userID: "alice", expiresAt: Date(timeIntervalSinceNow: -60))
            let forged = try await Authenticator(apiKey: server.apiKey, apiSecret: String(repeating: "x", count: 40)).token(
                userID: "alice")
            let cases: [(token: String, user: String, apiKey: String, code: Int)] = [
                (expired, "alice", server.apiKey, 40),
                (forged, "alice", server.apiKey, 43),
                (try await server.token("bob"), "alice", server.apiKey, 43),
                (try await server.token(nil), "alice", server.apiKey, 43),
                (try await server.token("alice"), "alice", "other-key", 2),
                ("not-a-jwt", "alice", server.apiKey, 5),
            ]
            for refused in cases {
                let socket = RealtimeSocket(
                    url: server.webSocketURL, apiKey: refused.apiKey, userID: refused.user, token: refused.token,
                    logger: TestDatabase.logger)
                let error = try await Inbox(socket).next()
                #expect(error["type"].string == "connection.error", "\(error)")
                #expect(error["error"]["code"].int == refused.code && error["error"]["StatusCode"].int == 401, "\(error)")
                #expect(try await socket.closeCode() == 1000)
            }
            // A first message that is not the auth message.
            let socket = RealtimeSocket(
                url: server.webSocketURL, apiKey: server.apiKey, userID: "alice", token: "", logger: TestDatabase.logger)
            let error = try await Inbox(socket).next()
            #expect(error["type"].string == "connection.error" && error["error"]["code"].int != nil, "\(error)")
        }
    }

    @Test func aWatcherGetsTheEventsOfEveryWriteKind() async throws {
        try await TestServer.run { server in
            let (socket, inbox, id) = try await server.connected("alice")
            try await server.watch("user:alice", as: "alice", connectionID: id)

            let activity = try #require(try await server.addActivity(as: "alice", text: "hello")["id"].string)
            var event = try await inbox.event()
            #expect(event["type"].string == "feeds.activity.added" && event["fid"].string == "user:alice")
            #expect(
                event["activity"]["id"].string == activity && event["user"]["id"].string == "alice"
                    && event["custom"].object != nil)
            #expect(
                try await server.api(.PATCH, "/feeds/activities/\(activity)", as: "alice", json: #"{"set":{"text":"hi"}}"#).status
                    == 200)
            event = try await inbox.event()
            #expect(event["type"].string == "feeds.activity.updated" && event["activity"]["text"].string == "hi")
            #expect(
                try await server.api(.POST, "/feeds/activities/\(activity)/reactions", as: "bob", json: #"{"type":"like"}"#)
                    .status == 201)
            event = try await inbox.event()
            #expect(event["type"].string == "feeds.activity.reaction.added" && event["reaction"]["user"]["id"].string == "bob")
            #expect(event["activity"]["reaction_count"].int == 1)
            #expect(try await server.api(.DELETE, "/feeds/activities/\(activity)/reactions/like", as: "bob").status == 200)
            #expect(try await inbox.event()["type"].string == "feeds.activity.reaction.deleted")

            let comment = try #require(try await server.comment(on: activity, "nice", as: "bob").body["comment"]["id"].string)
            event = try await inbox.event()
            #expect(event["type"].string == "feeds.comment.added" && event["comment"]["id"].string == comment)
            #expect(event["activity"]["id"].string == activity)
            #expect(
                try await server.api(.PATCH, "/feeds/comments/\(comment)", as: "bob", json: #"{"comment":"nicer"}"#).status == 200
            )
            event = try await inbox.event()
            #expect(event["type"].string == "feeds.comment.updated" && event["comment"]["text"].string == "nicer")
            #expect(
                try await server.api(.POST, "/feeds/comments/\(comment)/reactions", as: "alice", json: #"{"type":"heart"}"#)
                    .status == 201)
            event = try await inbox.event()
            #expect(event["type"].string == "feeds.comment.reaction.added" && event["reaction"]["type"].string == "heart")
            #expect(try await server.api(.DELETE, "/feeds/comments/\(comment)", as: "bob").status == 200)
            #expect(try await inbox.event()["type"].string == "feeds.comment.deleted")

            try await server.createFeed("timeline:bob", owner: "bob")
            #expect(try await server.follow("timeline:bob", "user:alice", as: "bob").status == 201)
            event = try await inbox.event()
            #expect(
                event["type"].string == "feeds.follow.created" && event["follow"]["source_feed"]["feed"].string == "timeline:bob")
            #expect(try await server.api(.DELETE, "/feeds/follows/timeline:bob/user:alice", as: "bob").status == 200)
            #expect(try await inbox.event()["type"].string == "feeds.follow.deleted")

            #expect(try await server.api(.DELETE, "/feeds/activities/\(activity)", as: "alice").status == 200)
            event = try await inbox.event()
            #expect(event["type"].string == "feeds.activity.deleted" && event["activity"]["id"].string == activity)
            try await socket.hangUp()
        }
    }

    /// Each write the watcher must not see is followed by one it must: the next event it gets is
    /// the latter, so the former was not delivered (events of one node arrive in order).
    @Test func aWatcherSeesNothingOfFeedsItDoesNotWatchOrActivitiesItMayNotRead() async throws {
        try await TestServer.run { server in
            let (socket, inbox, id) = try await server.connected("carol")
            try await server.createFeed("user:alice", owner: "alice")
            try await server.watch("user:alice", as: "carol", connectionID: id)

            _ = try await server.addActivity(as: "alice", text: "only me", extra: #""visibility":"private""#)
            _ = try await server.addActivity(as: "dave", text: "not watched")
            let seen = try #require(try await server.addActivity(as: "alice", text: "for all")["id"].string)
            let event = try await inbox.event()
            #expect(event["activity"]["id"].string == seen && event["activity"]["text"].string == "for all")

            // A private feed of another user cannot be watched; nor can another user's socket be used.
            try await server.createFeed("notification:alice", owner: "alice", visibility: "private")
            let refused = try await server.api(
                .POST, "/feeds/feed_groups/notification/feeds/alice", as: "carol", json: #"{"watch":true}"#,
                query: "&connection_id=\(id)")
            #expect(refused.status == 403, "\(refused.text)")
            let stolen = try await server.api(
                .POST, "/feeds/feed_groups/user/feeds/dave", as: "mallory", json: #"{"watch":true}"#,
                query: "&connection_id=\(id)")
            #expect(stolen.status == 403, "\(stolen.text)")
            let garbage = try await server.api(
                .POST, "/feeds/feed_groups/user/feeds/dave", as: "carol", json: #"{"watch":true}"#,
                query: "&connection_id=\(String(repeating: "x", count: 200))")
            #expect(garbage.status == 400, "\(garbage.text)")
            _ = try await server.addActivity(as: "dave", text: "still not watched")
            let next = try #require(try await server.addActivity(as: "alice", text: "again")["id"].string)
            #expect(try await inbox.event()["activity"]["id"].string == next)
            try await socket.hangUp()
        }
    }

    /// The main HTTP port upgrades `/api/v2/connect` too, and goes on serving requests.
    @Test func theMainPortServesTheSocketToo() async throws {
        try await TestServer.run { server in
            let url = server.baseURL.replacingOccurrences(of: "http://", with: "ws://") + "/api/v2/connect"
            let socket = RealtimeSocket(
                url: url, apiKey: server.apiKey, userID: "alice", token: try await server.token("alice"),
                logger: TestDatabase.logger)
            let inbox = Inbox(socket)
            let id = try #require(try await inbox.next()["connection_id"].string)
            try await server.watch("user:alice", as: "alice", connectionID: id)
            let posted = try #require(try await server.addActivity(as: "alice", text: "hello")["id"].string)
            #expect(try await inbox.event()["activity"]["id"].string == posted)
            socket.send(#"[{"type":"health.check","client_id":"alice-1"}]"#)
            #expect(try await inbox.event(orHealthCheck: true)["connection_id"].string == id)
            // A plain request for the same path is not upgraded: the API answers it, with an error.
            let plain = try await server.send(.GET, "/api/v2/connect")
            #expect((400..<500).contains(plain.status) && plain.body["code"].int != nil, "\(plain.text)")
            #expect(try await server.send(.GET, "/healthz").status == 200)
            try await socket.hangUp()
            #expect(try await socket.closeCode() == 1000)
        }
    }

    /// A second `feeds serve` process on the same database: a socket on it gets the writes made
    /// on the first, watched through either node.
    @Test func eventsReachWatchersOnAnotherNode() async throws {
        try await TestServer.run { server in
            let webSocketPort = try freeLoopbackPort()
            let other = try await FeedsNode(
                databaseURL: server.databaseURL, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
                port: try freeLoopbackPort(), environment: ["FEEDS_WS_PORT": String(webSocketPort)])
            defer { other.stop() }
            let socket = RealtimeSocket(
                url: "ws://127.0.0.1:\(webSocketPort)/api/v2/connect", apiKey: server.apiKey, userID: "alice",
                token: try await server.token("alice"), logger: TestDatabase.logger)
            let inbox = Inbox(socket)
            let id = try #require(try await inbox.next()["connection_id"].string)
            // Watched through this node, which forwards the watch to the other: it takes effect soon after.
            try await server.watch("user:alice", as: "alice", connectionID: id)
            let poster = Task {
                while !Task.isCancelled {
                    _ = try await server.addActivity(as: "alice", text: "ping")
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            let first = try await inbox.event()
            poster.cancel()
            _ = await poster.result
            #expect(first["type"].string == "feeds.activity.added" && first["fid"].string == "user:alice")
            // From now on each write arrives, once.
            let posted = try #require(try await server.addActivity(as: "alice", text: "pong")["id"].string)
            var ids: [String] = []
            while ids.last != posted { ids.append(try #require(try await inbox.event()["activity"]["id"].string)) }
            #expect(Set(ids).count == ids.count)

            // A node shutting down closes its sockets with 1012, so the SDKs reconnect elsewhere:
            // on either of its ports.
            let onMainPort = RealtimeSocket(
                url: other.baseURL.replacingOccurrences(of: "http://", with: "ws://") + "/api/v2/connect", apiKey: server.apiKey,
                userID: "bob",
                token: try await server.token("bob"), logger: TestDatabase.logger)
            #expect(try await Inbox(onMainPort).next()["type"].string == "connection.ok")
            try await other.terminate()
            #expect(try await socket.closeCode() == 1012)
            #expect(try await onMainPort.closeCode() == 1012)
        }
    }

    /// Killing the listening connection may lose events: every socket is closed with 1012 so the
    /// SDK reconnects and re-syncs; a new socket gets events again.
    @Test func aLostListenerClosesSocketsForAResync() async throws {
        try await TestServer.run { server in
            let (socket, inbox, id) = try await server.connected("alice")
            try await server.watch("user:alice", as: "alice", connectionID: id)
            _ = try await server.addActivity(as: "alice", text: "before")
            _ = try await inbox.event()
            _ = try await server.database.query(
                """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND query ILIKE 'LISTEN%feeds_events%'
                """, logger: TestDatabase.logger)
            #expect(try await socket.closeCode() == 1012)
            let (again, inboxAgain, newID) = try await server.connected("alice")
            try await server.watch("user:alice", as: "alice", connectionID: newID)
            let posted = try #require(try await server.addActivity(as: "alice", text: "after")["id"].string)
            #expect(try await inboxAgain.event()["activity"]["id"].string == posted)
            try await again.hangUp()
        }
    }
}

/// A socket's messages, one at a time, as JSON.
actor Inbox {
    private var iterator: AsyncStream<ByteBuffer>.AsyncIterator

    init(_ socket: RealtimeSocket) {
        iterator = socket.messages.makeAsyncIterator()
    }

    /// The next message; fails when the socket ended, or (a hang guard) after `within` seconds.
    func next(within seconds: Int = 120) async throws -> JSONValue {
        let text = try await hangGuard("the next real-time message", seconds: seconds) { [self] in await self.take() }
        guard let text else { throw SocketEnded() }
        return try JSONValue(parsing: String(buffer: text))
    }

    /// The next event, health checks skipped (unless asked for). The guard bounds the whole wait:
    /// health checks keep coming, so a guard per message would never fire.
    func event(within seconds: Int = 120, orHealthCheck: Bool = false) async throws -> JSONValue {
        try await hangGuard("the next real-time event", seconds: seconds) { [self] in
            while true {
                guard let text = await self.take() else { throw SocketEnded() }
                try Task.checkCancellation()
                let message = try JSONValue(parsing: String(buffer: text))
                if orHealthCheck || message["type"].string != "health.check" { return message }
            }
        }
    }

    /// Calls do not overlap: each waits for the one before (the guard's task awaits `take`).
    private func take() async -> ByteBuffer? {
        var current = iterator
        defer { iterator = current }
        return await current.next(isolation: self)
    }

    struct SocketEnded: Error {}
}

extension RealtimeSocket {
    /// The code the server closed the socket with (a hang guard of two minutes).
    func closeCode() async throws -> Int? {
        try await hangGuard("the server to close the socket", seconds: 120) { try await self.closed?.code }
    }

    /// Closes the socket and waits for it to end (a hang guard of two minutes).
    func hangUp() async throws {
        try await hangGuard("the socket to close", seconds: 120) { await self.close() }
    }
}

extension TestServer {
    /// A socket of `user`, authenticated with their token.
    func socket(_ user: String, details: String = "") async throws -> (RealtimeSocket, Inbox) {
        let socket = RealtimeSocket(
            url: webSocketURL, apiKey: apiKey, userID: user, token: try await token(user), details: details,
            logger: TestDatabase.logger)
        return (socket, Inbox(socket))
    }

    /// A socket past `connection.ok`, with its connection id.
    func connected(_ user: String) async throws -> (RealtimeSocket, Inbox, String) {
        let (socket, inbox) = try await socket(user)
        let ok = try await inbox.next()
        let id = try #require(ok["connection_id"].string, "\(ok)")
        return (socket, inbox, id)
    }

    /// GetOrCreateFeed with `watch` for the socket `connectionID`.
    func watch(_ fid: String, as user: String, connectionID: String) async throws {
        let parts = fid.split(separator: ":")
        let reply = try await api(
            .POST, "/feeds/feed_groups/\(parts[0])/feeds/\(parts[1])", as: user, json: #"{"watch":true}"#,
            query: "&connection_id=\(connectionID)")
        #expect(reply.status == 201, "\(reply.text)")
    }
}
