import NIOCore

/// A WebSocket close frame as bytes, for the handlers that sit ahead of
/// NIO's frame codec and close a connection themselves.
enum RawCloseFrame {
    /// A server's close frame (not masked): the code and a reason of at most
    /// 123 bytes, as a close frame allows.
    static func bytes(code: UInt16, reason: String, allocator: ByteBufferAllocator) -> ByteBuffer {
        let reason = Array(reason.utf8.prefix(123))
        var frame = allocator.buffer(capacity: 4 + reason.count)
        frame.writeBytes([0x88, UInt8(2 + reason.count)])
        frame.writeInteger(code)
        frame.writeBytes(reason)
        return frame
    }

    /// Writes the frame, then closes the connection without waiting for the
    /// other side's close: it is being refused, not shut down politely.
    static func write(code: UInt16, reason: String, andCloseThrough context: ChannelHandlerContext) {
        let frame = bytes(code: code, reason: reason, allocator: context.channel.allocator)
        let onItsLoop = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(frame)).whenComplete { _ in onItsLoop.value.close(promise: nil) }
    }
}
