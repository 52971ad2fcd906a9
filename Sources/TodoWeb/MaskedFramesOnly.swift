import NIOCore

/// Closes a tab's connection whose frames are not masked, as RFC 6455
/// (5.1) says a server must: NIO's frame decoder and Hummingbird's
/// WebSocket take either. It reads only the frames' headers, ahead of the
/// decoder, and passes every byte on untouched.
///
/// Browsers always mask; a frame that is not masked comes from a program
/// that holds the key and speaks the protocol wrongly, and gets a close
/// (1002) that says why, as todod answers a malformed line.
final class MaskedFramesOnly: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The current frame's header bytes read so far.
    private var header: [UInt8] = []
    /// Payload bytes of the current frame still to pass.
    private var payloadLeft: UInt64 = 0
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let bytes = unwrapInboundIn(data).readableBytesView
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if payloadLeft > 0 {
                let skipped = Int(min(UInt64(bytes.endIndex - index), payloadLeft))
                index += skipped
                payloadLeft -= UInt64(skipped)
                continue
            }
            header.append(bytes[index])
            index += 1
            guard header.count >= 2 else { continue }
            guard header[1] & 0x80 != 0 else {
                refuse(context)
                return
            }
            let shortLength = header[1] & 0x7F
            let lengthBytes = shortLength == 126 ? 2 : shortLength == 127 ? 8 : 0
            guard header.count == 2 + lengthBytes + 4 else { continue }
            payloadLeft = lengthBytes == 0 ? UInt64(shortLength) : header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
            header.removeAll(keepingCapacity: true)
        }
        context.fireChannelRead(data)
    }

    /// A close frame (1002, protocol error) written straight to the socket,
    /// then the connection closed; nothing of this frame reaches todod.
    private func refuse(_ context: ChannelHandlerContext) {
        refused = true
        let reason = Array("a client's frames must be masked (RFC 6455)".utf8)
        var frame = context.channel.allocator.buffer(capacity: 4 + reason.count)
        frame.writeBytes([0x88, UInt8(2 + reason.count), 0x03, 0xEA])
        frame.writeBytes(reason)
        let onItsLoop = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in onItsLoop.value.close(promise: nil) }
    }
}
