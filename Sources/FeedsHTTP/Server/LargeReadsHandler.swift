import NIOCore

/// Lets a connection read up to 1 MB at a time rather than NIO's 64 KB. An upload then crosses
/// the pipeline, the body streams, the multipart scan and the file writes in a sixteenth of the
/// steps. The allocator adapts to what each read brings, so small requests keep small buffers.
final class LargeReadsHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    static let maximumRead = 1 << 20

    func handlerAdded(context: ChannelHandlerContext) {
        _ = context.channel.setOption(
            ChannelOptions.recvAllocator,
            value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: Self.maximumRead))
    }
}
