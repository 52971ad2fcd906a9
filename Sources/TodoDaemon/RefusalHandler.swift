import Foundation
import NIOCore

/// Answers a connection that will not be served (another user, too many
/// connections) with one error line as soon as it is open, then closes it.
final class RefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let line: Data

    init(line: Data) {
        self.line = line
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(data: line))).whenComplete { _ in
            channel.closeAfterLastLine()
        }
        context.fireChannelActive()
    }

    /// Whatever the client sends meanwhile is not read.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { context.close(promise: nil) }
    }
}
