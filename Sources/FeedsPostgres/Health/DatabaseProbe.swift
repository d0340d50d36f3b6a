import FeedsCore
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Knows when PostgreSQL is down, so that requests can be refused at once instead of waiting out
/// their deadline: while the server refuses connections the pool does not fail a request, it
/// waits for a connection that never comes.
///
/// Every `interval` (a quarter of it while down) the probe opens a TCP connection to the server
/// and sends PostgreSQL's SSLRequest, which the server answers with one byte before any login;
/// closing then is what a client declining TLS does, so the server logs nothing. Refused,
/// unreachable or closed without an answer is down; an answer is up. A probe that only takes
/// long (a busy machine) changes nothing: slowness is left to the request deadlines.
public final class DatabaseProbe: Service, Sendable {
    private enum Target: Sendable {
        case tcp(host: String, port: Int)
        case socket(path: String)
    }

    private let target: Target?
    private let interval: Duration
    private let logger: Logger
    /// What the log calls the server, and what follows while it is down.
    private let name: String, whileDown: String
    private let down = Atomic(false)

    /// Whether the last probe found the database down.
    public var isDown: Bool { down.load(ordering: .relaxed) }

    /// A probe of the server `configuration` connects to.
    public init(
        _ configuration: PostgresClient.Configuration, interval: Duration = .seconds(1), name: String = "the database",
        whileDown: String = "requests get 503 until it answers", logger: Logger
    ) {
        if let host = configuration.host, let port = configuration.port {
            target = .tcp(host: host, port: port)
        } else {
            target = configuration.unixSocketPath.map { .socket(path: $0) }
        }
        self.interval = interval
        (self.name, self.whileDown) = (name, whileDown)
        self.logger = logger
    }

    public func run() async throws {
        guard target != nil else { return }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if let answered = await self.probe(), !Task.isCancelled {
                    let was = self.down.exchange(!answered, ordering: .relaxed)
                    if was != !answered {
                        if answered {
                            self.logger.notice("\(self.name) answers again")
                        } else {
                            self.logger.error("\(self.name) refuses connections; \(self.whileDown)")
                        }
                    }
                }
                try? await Task.sleep(for: self.isDown ? self.interval / 4 : self.interval)
            }
        }
    }

    /// True when the server answered, false when it is down, nil when the probe only took long.
    private func probe() async -> Bool? {
        guard let target else { return nil }
        let limit = max(interval, .seconds(1))
        do {
            return try await withDeadline(limit, orThrow: { ProbeTookLong() }) {
                let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(TimeAmount(limit))
                let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
                switch target {
                case .tcp(let host, let port):
                    channel = try await bootstrap.connect(host: host, port: port) { Self.wrap($0) }
                case .socket(let path):
                    channel = try await bootstrap.connect(unixDomainSocketPath: path) { Self.wrap($0) }
                }
                return try await channel.executeThenClose { inbound, outbound in
                    // SSLRequest: length 8, code 80877103.
                    var request = ByteBuffer()
                    request.writeInteger(UInt32(8))
                    request.writeInteger(UInt32(80_877_103))
                    try await outbound.write(request)
                    for try await reply in inbound where reply.readableBytes > 0 { return true }
                    return false
                }
            }
        } catch is ProbeTookLong {
            return nil
        } catch is CancellationError {
            return nil  // the server is stopping: no news of the database
        } catch ChannelError.connectTimeout {
            return nil
        } catch {
            return Task.isCancelled ? nil : false
        }
    }

    private static func wrap(_ channel: any Channel) -> EventLoopFuture<NIOAsyncChannel<ByteBuffer, ByteBuffer>> {
        channel.eventLoop.makeCompletedFuture {
            try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
    }

    private struct ProbeTookLong: Error {}
}
extension DatabaseProbe: DatabaseHealth {}
