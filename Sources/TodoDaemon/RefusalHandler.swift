import Foundation
import NIOCore

/// Answers a connection that will not be served (another user, too many
/// connections) with one error line as soon as it is open, then closes it.
final class RefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let line: Data
    private let lingering: TimeAmount?
    private var written = false
    /// The client sent something before the line was out: close once it is.
    private var readBeforeWritten = false

    /// With `lingering`, the connection stays open both ways after the line
    /// until the client sends something or hangs up, or that long passes: a
    /// client slow to start (a loaded machine) still finds it open, checks
    /// who serves it, and reads why. Without, it is half-closed at once and
    /// closed 10 ms later, which matters when descriptors run short.
    init(line: Data, lingering: TimeAmount? = nil) {
        self.line = line
        self.lingering = lingering
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(data: line))).whenComplete { _ in
            bound.value.written = true
            if bound.value.readBeforeWritten {
                channel.close(promise: nil)
            } else if let lingering = bound.value.lingering {
                channel.eventLoop.scheduleTask(in: lingering) { channel.close(promise: nil) }
            } else {
                channel.closeAfterLastLine(within: .milliseconds(10))
            }
        }
        context.fireChannelActive()
    }

    /// Whatever the client sends is read and dropped; once something came
    /// (its bytes are out of the socket, so closing resets nothing), the
    /// connection closes. Otherwise it closes 10 ms after the line (or when
    /// `lingering` passes), long
    /// enough for a request sent on connecting to be read first: a refused
    /// client holds a descriptor no longer than it must, which matters most
    /// when descriptors run short.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if written { context.close(promise: nil) } else { readBeforeWritten = true }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { context.close(promise: nil) }
    }
}
