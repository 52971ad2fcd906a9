import Foundation
import NIOCore

/// Answers a connection that will not be served (another user, too many
/// connections) with one error line as soon as it is open, then closes it.
final class RefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let line: Data
    private var written = false

    init(line: Data) {
        self.line = line
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(data: line))).whenComplete { _ in
            bound.value.written = true
            channel.closeAfterLastLine(within: .milliseconds(10))
        }
        context.fireChannelActive()
    }

    /// Whatever the client sends is read and dropped; once something came
    /// (its bytes are out of the socket, so closing resets nothing), the
    /// connection closes. Otherwise it closes 10 ms after the line, long
    /// enough for a request sent on connecting to be read first: a refused
    /// client holds a descriptor no longer than it must, which matters most
    /// when descriptors run short.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if written { context.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { context.close(promise: nil) }
    }
}
