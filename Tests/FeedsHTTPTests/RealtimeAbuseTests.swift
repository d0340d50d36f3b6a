import FeedsLoadTest
import FeedsTestSupport
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

/// What a hostile client does to the WebSocket port, over raw TCP: it never sends its auth
/// message, never answers a ping, sends a message too large, opens one connection too many, or
/// asks the port for something else. Each wait is for an event, under a hang guard.
@Suite struct RealtimeAbuseTests {
    @Test func aSocketThatNeverAuthenticatesIsClosed() async throws {
        try await TestServer.run(configure: { $0.webSocketAuthTimeout = .seconds(1) }) { server in
            let silent = try await RawSocket(server)
            try await silent.upgrade()
            try await hangGuard("the silent socket to be closed", seconds: 120) { try await silent.channel.closeFuture.get() }
        }
    }

    @Test func aSocketThatNeverAnswersAPingIsClosed() async throws {
        // No auth deadline to race on a busy machine: only the unanswered pings may close it.
        try await TestServer.run(configure: {
            $0.webSocketAuthTimeout = .seconds(600)
            $0.webSocketPingInterval = .milliseconds(300)
        }) { server in
            let token = try await server.token("alice")
            let deaf = try await RawSocket(server)
            try await deaf.upgrade()
            try await deaf.sendText(#"{"token":"\#(token)","user_details":{"id":"alice"}}"#)
            try await hangGuard("connection.ok", seconds: 120) { try await deaf.waitFor("connection.ok") }
            // Pings come (opcode 0x9) and go unanswered: the socket is closed.
            try await hangGuard("the deaf socket to be closed", seconds: 120) { try await deaf.channel.closeFuture.get() }
            #expect(deaf.received.contains(0x89))
        }
    }

    @Test func onTheMainPortABadUpgradeIs400AndASilentSocketIsClosed() async throws {
        try await TestServer.run(configure: { $0.webSocketAuthTimeout = .seconds(1) }) { server in
            let bad = try await RawSocket(server, mainPort: true)
            try await bad.upgrade(version: 8, expecting: "400 Bad Request")
            try await hangGuard("the refused connection to be closed", seconds: 120) { try await bad.channel.closeFuture.get() }
            #expect(String(decoding: bad.received, as: UTF8.self).contains(#""StatusCode":400"#))
            let silent = try await RawSocket(server, mainPort: true)
            try await silent.upgrade()
            try await hangGuard("the silent socket to be closed", seconds: 120) { try await silent.channel.closeFuture.get() }
            #expect(try await server.send(.GET, "/healthz").status == 200)
        }
    }

    /// A watcher that stops reading while large events keep coming is closed once 1 MB waits for
    /// it (after what the kernel holds), rather than buffered without end; the server goes on.
    @Test func aWatcherThatStopsReadingIsClosedForAResync() async throws {
        try await TestServer.run { server in
            let socket = try await RawSocket(server)
            try await socket.upgrade()
            try await socket.sendText(#"{"token":"\#(try await server.token("alice"))","user_details":{"id":"alice"}}"#)
            try await hangGuard("connection.ok", seconds: 120) { try await socket.waitFor("connection.ok") }
            let text = String(decoding: socket.received, as: UTF8.self)
            let id = try #require(text.firstMatch(of: /"connection_id":"([^"]+)"/)?.1)
            try await server.watch("user:alice", as: "alice", connectionID: String(id))
            try await socket.channel.setOption(.autoRead, value: false).get()
            let big = String(repeating: "x", count: 500_000)
            for _ in 0..<20 { _ = try await server.addActivity(as: "alice", text: big) }
            try await socket.channel.setOption(.autoRead, value: true).get()
            socket.channel.read()
            try await hangGuard("the slow socket to be closed", seconds: 120) { try await socket.channel.closeFuture.get() }
            // Closed before it got all 10 MB (its close frame, behind the bytes it did not read, is
            // dropped with them once the close grace is over).
            #expect(socket.received.count < 20 * 500_000)
            #expect(try await server.send(.GET, "/healthz").status == 200)
        }
    }

    @Test func anAuthMessageOverTheLimitClosesTheSocketAndWritesNothing() async throws {
        try await TestServer.run { server in
            let socket = try await RawSocket(server)
            try await socket.upgrade()
            let name = String(repeating: "a", count: 70_000)
            try await socket.sendText(
                #"{"token":"\#(try await server.token("mallory"))","user_details":{"id":"mallory","name":"\#(name)"}}"#)
            try await hangGuard("the socket to be closed", seconds: 120) { try await socket.channel.closeFuture.get() }
            // Close code 1009 (message too big), and no user was made.
            let received = socket.received
            #expect(zip(received, received.dropFirst()).contains { $0 == (0x03, 0xF1) })
            let payload =
                #"{"filter_conditions":{"id":"mallory"}}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let users = try await server.api(.GET, "/users", as: nil, query: "&payload=\(payload)")
            #expect(users.status == 200 && users.body["users"].array.isEmpty, "\(users.text)")
        }
    }

    @Test func oneConnectionOverTheCapIsClosedAndTheOthersStay() async throws {
        // Only the cap may close the held sockets, however busy the machine: no other deadline.
        try await TestServer.run(configure: {
            $0.maxConnections = 3
            $0.headerTimeout = .seconds(600)
            $0.webSocketAuthTimeout = .seconds(600)
        }) { server in
            // Each held socket is counted once it is answered `connection.ok`. Connections are
            // counted on their own event loops, so the fourth must not be opened before: on a busy
            // machine it could be counted ahead of the third, which would then be the one closed.
            var held: [(user: String, socket: RealtimeSocket, inbox: Inbox, id: String)] = []
            for user in ["a", "b", "c"] {
                let (socket, inbox, id) = try await server.connected(user)
                held.append((user, socket, inbox, id))
            }
            let over = try await RawSocket(server)
            try await hangGuard("the connection over the cap to be closed", seconds: 120) {
                try await over.channel.closeFuture.get()
            }
            // The held ones are still served.
            for socket in held {
                try await server.watch("user:\(socket.user)", as: socket.user, connectionID: socket.id)
                try await server.addActivity(as: socket.user, text: "still here")
                #expect(try await socket.inbox.event()["activity"]["text"].string == "still here")
                try await socket.socket.hangUp()
            }
        }
    }

    /// Connections that never authenticate filled the cap and refused a real client until the
    /// auth deadline cleared them. They have a budget of their own: a few per address (one more
    /// is closed), a few in all (the oldest makes room), and they never keep out a client that
    /// authenticates, nor take the place of one that did.
    @Test func aFloodOfUnauthenticatedSocketsKeepsNoRealClientOut() async throws {
        try await TestServer.run(configure: {
            $0.maxConnections = 12
            $0.webSocketPending = (limit: 6, perAddress: 3)
            $0.headerTimeout = .seconds(600)
            $0.webSocketAuthTimeout = .seconds(600)
        }) { server in
            let (alice, aliceInbox, aliceID) = try await server.connected("alice")
            // Three from one address are held; a fourth from it is closed at once.
            var flood: [RawSocket] = []
            for _ in 0..<3 { flood.append(try await RawSocket(server, from: "127.0.0.2")) }
            for socket in flood { try await socket.upgrade() }
            let fourth = try await RawSocket(server, from: "127.0.0.2")
            try await hangGuard("the fourth from one address closed", seconds: 120) { try await fourth.channel.closeFuture.get() }
            // More addresses: past six pending, the oldest go.
            for address in ["127.0.0.3", "127.0.0.4", "127.0.0.5"] {
                for _ in 0..<3 { flood.append(try await RawSocket(server, from: address)) }
            }
            let oldest = flood[0]
            try await hangGuard("the oldest pending closed", seconds: 120) { try await oldest.channel.closeFuture.get() }
            // A real client connects and is served, and so is the one that was there before.
            let (bob, bobInbox, bobID) = try await server.connected("bob")
            for (user, inbox, id) in [("alice", aliceInbox, aliceID), ("bob", bobInbox, bobID)] {
                try await server.watch("user:\(user)", as: user, connectionID: id)
                try await server.addActivity(as: user, text: "served")
                #expect(try await inbox.event()["activity"]["text"].string == "served")
            }
            for socket in flood where socket.channel.isActive { try? await socket.channel.close().get() }
            try await alice.hangUp()
            try await bob.hangUp()
        }
    }

    @Test func thePortAnswersOtherRequestsInStreamsErrorShape() async throws {
        try await TestServer.run { server in
            let base = server.webSocketURL.replacingOccurrences(of: "ws://", with: "http://")
            for (url, status) in [(base, 400), (base.replacingOccurrences(of: "/api/v2/connect", with: "/api/v2/app"), 404)] {
                let reply = try await TestServer.send(.GET, url)
                #expect(reply.status == status && reply.body["StatusCode"].int == status && reply.body["message"].string != nil)
            }
        }
    }
}

/// A raw TCP connection to the WebSocket port, writing frames by hand and keeping every byte it
/// receives; it answers nothing.
final class RawSocket: Sendable {
    let channel: any Channel
    private let bytes: NIOLockedValueBox<[UInt8]>

    /// To the WebSocket port, or with `mainPort` to the HTTP port; `from` another loopback
    /// address (`127.0.0.2`), as another client would.
    init(_ server: TestServer, mainPort: Bool = false, from address: String? = nil) async throws {
        let url = try #require(URLComponents(string: mainPort ? server.baseURL : server.webSocketURL))
        let bytes = NIOLockedValueBox<[UInt8]>([])
        self.bytes = bytes
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Collector(bytes: bytes)) }
            }
        if let address { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: address, port: 0)) }
        channel = try await bootstrap.connect(host: "127.0.0.1", port: try #require(url.port)).get()
        apiKey = server.apiKey
    }

    private let apiKey: String

    var received: [UInt8] { bytes.withLockedValue { $0 } }

    func upgrade(version: Int = 13, expecting answer: String = "101 Switching Protocols") async throws {
        let request =
            "GET /api/v2/connect?api_key=\(apiKey)&stream-auth-type=jwt HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: \(version)\r\n\r\n"
        try await channel.writeAndFlush(ByteBuffer(string: request))
        try await hangGuard(answer, seconds: 120) { try await self.waitFor(answer) }
    }

    /// A masked text frame (the mask key is zero, so the payload goes as it is).
    func sendText(_ text: String) async throws {
        var frame = ByteBuffer(bytes: [0x81])
        let count = text.utf8.count
        if count < 126 {
            frame.writeInteger(UInt8(0x80 | count))
        } else if count <= 0xFFFF {
            frame.writeInteger(UInt8(0x80 | 126))
            frame.writeInteger(UInt16(count))
        } else {
            frame.writeInteger(UInt8(0x80 | 127))
            frame.writeInteger(UInt64(count))
        }
        frame.writeInteger(UInt32(0))
        frame.writeString(text)
        try await channel.writeAndFlush(frame)
    }

    func waitFor(_ text: String) async throws {
        while String(decoding: received, as: UTF8.self).range(of: text) == nil {
            guard channel.isActive else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

private final class Collector: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let bytes: NIOLockedValueBox<[UInt8]>

    init(bytes: NIOLockedValueBox<[UInt8]>) { self.bytes = bytes }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        bytes.withLockedValue { $0 += buffer.readableBytesView }
    }
}
