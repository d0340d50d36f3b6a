import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP proxy in front of a dependency (PostgreSQL, the object store) that a test can freeze:
/// frozen, it passes nothing on in either direction, so the dependency seems to hang (connections
/// stay open, nothing comes back), as a stalled host or a network partition would. Thawed, what
/// it held flows on. Refusing, it closes every connection as it comes, as a stopped server would.
/// Test-only.
public final class FreezableProxy: Sendable {
    public let port: Int
    private let channel: any Channel
    private let state: State

    final class State: Sendable {
        let frozen = NIOLockedValueBox(false)
        let refusing = NIOLockedValueBox(false)
        let channels = NIOLockedValueBox<[any Channel]>([])
        let relays = NIOLockedValueBox<[Relay]>([])
    }

    /// Listens on a free loopback port and forwards each connection to `host:port`.
    public init(to host: String, port target: Int) async throws {
        let state = State()
        self.state = state
        let group = MultiThreadedEventLoopGroup.singleton
        channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                if state.refusing.withLockedValue({ $0 }) { return inbound.close() }
                return ClientBootstrap(group: inbound.eventLoop).channelOption(.autoRead, value: false)
                    .connect(host: host, port: target)
                    .flatMap { outbound in
                        state.add(inbound, outbound)
                        let (toOutbound, toInbound) = (Relay(peer: outbound, state: state), Relay(peer: inbound, state: state))
                        state.relays.withLockedValue { $0 += [toOutbound, toInbound] }
                        return inbound.pipeline.addHandler(toOutbound).flatMap { outbound.pipeline.addHandler(toInbound) }
                            .map {
                                // The accepted side starts reading once active (`Relay.channelActive`);
                                // the connected side is active already.
                                if !state.frozen.withLockedValue({ $0 }) { outbound.read() }
                            }
                    }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    /// Stops reading on every connection, present and future.
    public func freeze() {
        state.frozen.withLockedValue { $0 = true }
    }

    /// Reads again on every connection.
    public func thaw() {
        state.frozen.withLockedValue { $0 = false }
        for relay in state.relays.withLockedValue({ $0 }) { relay.release() }
        for channel in state.channels.withLockedValue({ $0 }) where channel.isActive { channel.read() }
    }

    /// Closes every connection open now and each new one at once, until `admit()`.
    public func refuse() async {
        state.refusing.withLockedValue { $0 = true }
        await cutConnections()
    }

    /// Relays new connections again.
    public func admit() {
        state.refusing.withLockedValue { $0 = false }
    }

    /// Resets every connection open now, and what it held is never passed on: a partition that
    /// ended with the store's sessions lost. New connections are relayed as the proxy is set.
    public func cutConnections() async {
        let channels = state.channels.withLockedValue { channels in
            defer { channels = [] }; return channels
        }
        state.relays.withLockedValue { $0 = [] }
        for channel in channels { try? await channel.close() }
    }

    public func close() async {
        try? await channel.close()
        for channel in state.channels.withLockedValue({ $0 }) { try? await channel.close() }
    }
}

extension FreezableProxy.State {
    func add(_ channels: any Channel...) {
        self.channels.withLockedValue { $0 += channels }
    }
}

/// Writes what one side reads to the other; while the proxy is frozen it holds it instead, and
/// asks for no more (a read already asked for may still bring some).
final class Relay: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let peer: any Channel
    let state: FreezableProxy.State
    private let held = NIOLockedValueBox<[ByteBuffer]>([])

    init(peer: any Channel, state: FreezableProxy.State) {
        self.peer = peer
        self.state = state
    }

    func channelActive(context: ChannelHandlerContext) {
        if !state.frozen.withLockedValue({ $0 }) { context.read() }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        let frozen = state.frozen.withLockedValue { $0 }
        if frozen {
            held.withLockedValue { $0.append(bytes) }
        } else {
            peer.writeAndFlush(bytes, promise: nil)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if !state.frozen.withLockedValue({ $0 }) { context.read() }
    }

    /// Passes on what was held while frozen.
    func release() {
        for bytes in held.withLockedValue({ held in
            defer { held = [] }; return held
        }) {
            peer.writeAndFlush(bytes, promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        peer.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
