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
            let payload = #"{"filter_conditions":{"id":"mallory"}}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
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
            // Each held socket is counted once its upgrade is answered. Connections are counted on
            // their own event loops, so the fourth must not be opened before: on a busy machine it
            // could be counted ahead of the third, which would then be the one closed.
            let held = [try await RawSocket(server), try await RawSocket(server), try await RawSocket(server)]
            for socket in held { try await socket.upgrade() }
            let over = try await RawSocket(server)
            try await hangGuard("the connection over the cap to be closed", seconds: 120) { try await over.channel.closeFuture.get() }
            #expect(held.allSatisfy { $0.channel.isActive })
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

    /// To the WebSocket port, or with `mainPort` to the HTTP port.
    init(_ server: TestServer, mainPort: Bool = false) async throws {
        let url = try #require(URLComponents(string: mainPort ? server.baseURL : server.webSocketURL))
        let bytes = NIOLockedValueBox<[UInt8]>([])
        self.bytes = bytes
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Collector(bytes: bytes)) }
            }
            .connect(host: "127.0.0.1", port: try #require(url.port)).get()
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
