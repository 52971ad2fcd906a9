import NIOCore
import NIOHTTP1

/// What a WebSocket the gate refused gets: its upgrade, then at once a
/// close frame with a code the page reads (4000 + the HTTP status the same
/// refusal would have) and a reason, and the connection closed without
/// waiting for an answer. Hummingbird could only answer a declined upgrade
/// with an empty 400, which a page's script cannot tell from any other
/// failure.
///
/// It sits where ``IncomingFrames`` would, ahead of NIO's frame decoder,
/// and drops every byte the client sends: a refused connection is never
/// read into a frame, so it costs no buffer, however much it sends.
final class RefusedWebSocket: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    let code: UInt16
    let reason: String

    init(status: Int, reason: String) {
        self.code = UInt16(4000 + status)
        self.reason = reason
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .upgradeComplete? = event as? HTTPServerUpgradeEvents {
            RawCloseFrame.write(code: code, reason: reason, andCloseThrough: context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
