import NIOCore
import NIOHTTP1

/// Reads the headers of a tab's frames ahead of NIO's frame decoder, and
/// closes the tab before its bytes are kept when:
/// - a frame is not masked, as RFC 6455 (5.1) says a server must (1002):
///   NIO's decoder and Hummingbird take either, and browsers always mask, so
///   this is a program that holds the key and speaks the protocol wrongly;
/// - its message would pass the ``MessageBudget`` all tabs share (1013).
///
/// It is added when the upgrade is agreed, behind the HTTP handlers, and
/// starts reading at the upgrade's end: so the bytes a client sent in the
/// same packet as its handshake, which the HTTP decoder hands on, pass
/// through it too, and it reads from a frame's first byte. Every byte it
/// passes on is untouched.
final class IncomingFrames: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    let budget: MessageBudget
    /// Set once the upgrade is complete: before, nothing here is a frame.
    private var reading = false
    private var refused = false
    /// The current frame's header bytes read so far.
    private var header: [UInt8] = []
    /// Payload bytes of the current frame still to pass.
    private var payloadLeft: UInt64 = 0
    private var frameIsControl = false
    private var frameEndsMessage = false
    /// The message being received: its bytes so far (all its frames), and
    /// what of them was taken from the budget.
    private var messageBytes = 0
    private var messageHeld = 0

    init(budget: MessageBudget) { self.budget = budget }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .upgradeComplete? = event as? HTTPServerUpgradeEvents { reading = true }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard reading else {
            context.fireChannelRead(data)
            return
        }
        guard !refused else { return }
        let bytes = unwrapInboundIn(data).readableBytesView
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if payloadLeft > 0 {
                let skipped = Int(min(UInt64(bytes.endIndex - index), payloadLeft))
                index += skipped
                payloadLeft -= UInt64(skipped)
                if payloadLeft == 0 { frameEnded() }
                continue
            }
            header.append(bytes[index])
            index += 1
            guard header.count >= 2 else { continue }
            guard header[1] & 0x80 != 0 else {
                refuse(context, code: 1002, reason: "a client's frames must be masked (RFC 6455)")
                return
            }
            let shortLength = header[1] & 0x7F
            let lengthBytes = shortLength == 126 ? 2 : shortLength == 127 ? 8 : 0
            guard header.count == 2 + lengthBytes + 4 else { continue }
            let length = lengthBytes == 0 ? UInt64(shortLength) : header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
            guard startFrame(fin: header[0] & 0x80 != 0, opcode: header[0] & 0x0F, length: length) else {
                refuse(context, code: 1013, reason: "todod-web holds too many unfinished messages from tabs; send it again")
                return
            }
            header.removeAll(keepingCapacity: true)
            payloadLeft = length
            if length == 0 { frameEnded() }
        }
        context.fireChannelRead(data)
    }

    /// Takes from the budget what the frame will make the decoder and the
    /// message hold past the tab's own allowance. What passes the message
    /// limit is not taken: the decoder or Hummingbird closes the tab with
    /// 1009 before holding it. Control frames (at most 125 bytes) are free.
    private func startFrame(fin: Bool, opcode: UInt8, length: UInt64) -> Bool {
        frameIsControl = opcode & 0x8 != 0
        guard !frameIsControl else { return true }
        frameEndsMessage = fin
        messageBytes = Int(min(UInt64(messageBytes) + length, UInt64(TabRelay.maximumMessageBytes)))
        let owed = max(0, messageBytes - MessageBudget.perTabAllowance) - messageHeld
        guard owed == 0 || budget.take(owed) else { return false }
        messageHeld += owed
        return true
    }

    /// A message is handed on whole with its last frame.
    private func frameEnded() {
        guard !frameIsControl, frameEndsMessage else { return }
        giveAllBack()
    }

    func channelInactive(context: ChannelHandlerContext) {
        giveAllBack()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        giveAllBack()
    }

    private func giveAllBack() {
        budget.giveBack(messageHeld)
        messageHeld = 0
        messageBytes = 0
    }

    /// Nothing of the refused frame reaches the decoder, or todod.
    private func refuse(_ context: ChannelHandlerContext, code: UInt16, reason: String) {
        refused = true
        giveAllBack()
        RawCloseFrame.write(code: code, reason: reason, andCloseThrough: context)
    }
}
