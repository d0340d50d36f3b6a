import FeedsTestSupport
import Foundation
import NIOCore
import NIOPosix
import Testing

/// Slow and idle clients lose their connection, one connection over the cap is closed at once,
/// and everyone else keeps being served. Hang guards, not clocks: each wait is for an event.
@Suite struct ConnectionGuardTests {
    /// A raw TCP connection to the server, to send bytes as slowly as an attacker would.
    static func connect(_ server: TestServer) async throws -> any Channel {
        let port = try #require(URLComponents(string: server.baseURL)?.port)
        return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
    }

    @Test func aConnectionThatSendsNoHeadOrSendsItByteByByteIsClosed() async throws {
        try await TestServer.run(configure: { $0.headerTimeout = .seconds(1) }) { server in
            let silent = try await Self.connect(server)
            let slow = try await Self.connect(server)
            // A byte every 100 ms: the head is never whole, however long it goes on.
            let dribble = Task {
                for byte in "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8 + Array(repeating: UInt8(ascii: "a"), count: 10_000) {
                    guard slow.isActive else { return }
                    try? await slow.writeAndFlush(ByteBuffer(bytes: [byte]))
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            try await hangGuard("the silent connection to be closed", seconds: 120) { try await silent.closeFuture.get() }
            try await hangGuard("the slow connection to be closed", seconds: 120) { try await slow.closeFuture.get() }
            dribble.cancel()
            // Meanwhile, and after, requests are served (a new connection of a machine too busy to
            // send its head within the second may be closed too: it tries again).
            try await eventually("a request served") { (try? await server.send(.GET, "/healthz").status) == 200 }
        }
    }

    @Test func aConnectionOverTheCapIsClosedAndTheOthersAreServed() async throws {
        // The held connections send nothing: a head timeout longer than any busy machine's delay
        // leaves the cap as the only thing that may close them.
        try await TestServer.run(configure: {
            $0.maxConnections = 3
            $0.headerTimeout = .seconds(600)
        }) { server in
            // A connection is counted on its own event loop: each held one is served a request (so
            // counted) before the next opens, or the fourth could be counted ahead of the third.
            var held: [RawSocket] = []
            for _ in 0..<3 {
                let socket = try await RawSocket(server, mainPort: true)
                try await socket.channel.writeAndFlush(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
                try await hangGuard("a held connection served", seconds: 120) { try await socket.waitFor("HTTP/1.1 200") }
                held.append(socket)
            }
            let over = try await Self.connect(server)
            try await hangGuard("the connection over the cap to be closed", seconds: 120) { try await over.closeFuture.get() }
            #expect(held.allSatisfy { $0.channel.isActive })
            // One held connection goes; a new client gets its place.
            try await held[0].channel.close()
            try await eventually("a request served once a place is free") {
                (try? await server.send(.GET, "/healthz").status) == 200
            }
            for socket in held.dropFirst() { try await socket.channel.close() }
        }
    }
}
