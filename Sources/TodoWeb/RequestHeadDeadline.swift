import Logging
import NIOCore
import NIOHTTP1

/// Closes a connection that has not sent a whole request head in time, as
/// nginx's `client_header_timeout` does.
///
/// Nothing else would: Hummingbird's idle timeout starts only once a first
/// request has come, so a connection that never sends a byte, or sends a
/// header line every few seconds, would keep its place for good, and the
/// key is checked only on a whole head. A browser sends its head at once.
///
/// It sits right after the HTTP decoder, sees the first head, and leaves
/// the pipeline: what follows is a page's keep-alive requests (Hummingbird's
/// idle timeout) or a tab's WebSocket (its pings).
final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// How long a connection may take from being accepted to a whole head.
    static let standard = TimeAmount.seconds(5)

    let deadline: TimeAmount
    let logger: Logger
    private var timer: Scheduled<Void>?
    private var sawHead = false

    init(deadline: TimeAmount = standard, logger: Logger) {
        self.deadline = deadline
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let onItsLoop = NIOLoopBound(context, eventLoop: context.eventLoop)
        let logger = self.logger
        let seconds = deadline.nanoseconds / 1_000_000_000
        timer = context.eventLoop.scheduleTask(in: deadline) {
            logger.debug("a connection sent no whole request head in \(seconds) s: closed")
            onItsLoop.value.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The decoder's first part is always a head. After it, anything is
        // passed on unread: on an upgrade the decoder hands on the bytes it
        // holds, which are no request parts.
        guard !sawHead, case .head = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        sawHead = true
        timer?.cancel()
        timer = nil
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// Added to a connection's pipeline once Hummingbird has set it up.
    static func add(to channel: any Channel, logger: Logger) throws {
        let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
        try channel.pipeline.syncOperations.addHandler(RequestHeadDeadline(logger: logger), position: .after(decoder))
    }
}
