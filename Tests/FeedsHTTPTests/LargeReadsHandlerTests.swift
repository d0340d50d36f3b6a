import NIOCore
import NIOPosix
import Testing

@testable import FeedsHTTP

@Suite struct LargeReadsHandlerTests {
    /// An accepted connection with the handler reads up to 256 KB at a time, one without it 64 KB.
    @Test(arguments: [true, false]) func aConnectionWithTheHandlerReadsUpTo256KB(withHandler: Bool) async throws {
        let (accepted, continuation) = AsyncStream.makeStream(of: Channel.self)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                continuation.yield(channel)
                return channel.eventLoop.makeCompletedFuture {
                    if withHandler { try channel.pipeline.syncOperations.addHandler(LargeReadsHandler()) }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(to: server.localAddress!).get()
        defer {
            client.close(promise: nil)
            server.close(promise: nil)
        }
        var channels = accepted.makeAsyncIterator()
        let channel = try #require(await channels.next())
        // Asked on the channel's event loop, so after its initializer has added the handler.
        let allocator = try await channel.getOption(ChannelOptions.recvAllocator).get()
        #expect((allocator as? AdaptiveRecvByteBufferAllocator)?.maximum == (withHandler ? 1 << 18 : 1 << 16))
    }
}
