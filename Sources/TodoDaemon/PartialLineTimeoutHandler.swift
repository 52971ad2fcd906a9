import NIOCore

/// Fails the connection when a request line is started but not finished in
/// time, so a client cannot hold a half-sent line (and its buffer) forever.
/// A connection that is idle between lines is fine: only an unfinished line
/// is timed. Sits before the line decoder and passes every byte on.
final class PartialLineTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    struct Timeout: Error {}

    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data).readableBytesView
        if bytes.last == UInt8(ascii: "\n") {
            // Whatever was open is finished, and nothing new started.
            timer?.cancel()
            timer = nil
        } else if !bytes.isEmpty && (timer == nil || bytes.contains(UInt8(ascii: "\n"))) {
            // A new line started in this chunk and did not end in it.
            timer?.cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: timeout) {
                loopBound.value.fireErrorCaught(Timeout())
            }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }
}
