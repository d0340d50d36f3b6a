import NIOCore

/// Lets a connection read up to 256 KB at a time rather than NIO's 64 KB. An upload then crosses
/// the pipeline, the body streams, the multipart scan and the file writes in a quarter of the
/// steps. The allocator adapts to what each read brings, so small requests keep small buffers.
/// (1 MB reads were no faster, and raised the server's peak memory during an upload by 20 MB more.)
final class LargeReadsHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    static let maximumRead = 1 << 18

    func handlerAdded(context: ChannelHandlerContext) {
        _ = context.channel.setOption(
            ChannelOptions.recvAllocator,
            value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: Self.maximumRead))
    }
}
