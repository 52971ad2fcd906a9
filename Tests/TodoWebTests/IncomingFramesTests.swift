import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import TodoWeb

/// The frame headers read ahead of NIO's decoder, in an embedded channel:
/// what passes on untouched, what is refused with which close, and what the
/// shared budget holds.
@Suite struct IncomingFramesTests {
    /// A channel past its upgrade, with the handler reading.
    func upgradedChannel(_ budget: MessageBudget) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: IncomingFrames(budget: budget))
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/rpc")
        channel.pipeline.fireUserInboundEventTriggered(HTTPServerUpgradeEvents.upgradeComplete(toProtocol: "websocket", upgradeRequest: head))
        return channel
    }

    /// A client frame's header (masked unless said) for `length` bytes, and `payload` bytes of it.
    func frame(opcode: UInt8 = 0x1, fin: Bool = true, masked: Bool = true, length: Int, payload: Int? = nil) -> ByteBuffer {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        if length < 126 {
            bytes.append(mask | UInt8(length))
        } else if length < 65536 {
            bytes.append(mask | 126)
            bytes += [UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(mask | 127)
            bytes += (0..<8).reversed().map { UInt8((length >> ($0 * 8)) & 0xFF) }
        }
        if masked { bytes += [1, 2, 3, 4] }
        bytes += [UInt8](repeating: 0x61, count: payload ?? length)
        return ByteBuffer(bytes: bytes)
    }

    /// The close code the handler wrote, if it wrote one.
    func closeCode(_ channel: EmbeddedChannel) throws -> UInt16? {
        guard var written = try channel.readOutbound(as: ByteBuffer.self) else { return nil }
        #expect(written.readInteger(as: UInt8.self) == 0x88)
        _ = written.readInteger(as: UInt8.self)
        return written.readInteger(as: UInt16.self)
    }

    @Test func maskedFramesPassUntouchedAndAnUnmaskedOneIsRefused() throws {
        let channel = try upgradedChannel(MessageBudget())
        let good = frame(length: 20)
        try channel.writeInbound(good)
        #expect(try channel.readInbound(as: ByteBuffer.self) == good)
        try channel.writeInbound(frame(masked: false, length: 20))
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil, "nothing of it reaches the decoder")
        #expect(try closeCode(channel) == 1002)
    }

    @Test func nothingIsReadAsAFrameBeforeTheUpgradeIsComplete() throws {
        let channel = EmbeddedChannel(handler: IncomingFrames(budget: MessageBudget()))
        let unmasked = frame(masked: false, length: 5)
        try channel.writeInbound(unmasked)
        #expect(try channel.readInbound(as: ByteBuffer.self) == unmasked)
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
    }

    @Test func framesSplitAnywhereAreReadFromTheirFirstByte() throws {
        let channel = try upgradedChannel(MessageBudget())
        var stream = frame(length: 300)
        stream.writeImmutableBuffer(frame(masked: false, length: 3))
        // One byte a read: the second frame's header is found where the first ends.
        while let byte = stream.readSlice(length: 1) {
            try? channel.writeInbound(byte)  // (throws once it is closed)
        }
        #expect(try closeCode(channel) == 1002)
    }

    @Test func unfinishedMessagesShareOneBudgetAndGiveItBack() throws {
        let budget = MessageBudget(bytes: 2 * 1024 * 1024)
        let first = try upgradedChannel(budget)
        let second = try upgradedChannel(budget)
        let third = try upgradedChannel(budget)
        // Two tabs hold a message of 1 MiB less a byte each; the third's is refused.
        let big = 1 << 20
        try first.writeInbound(frame(length: big, payload: big - 1))
        try second.writeInbound(frame(opcode: 0x1, fin: false, length: big / 2))
        try second.writeInbound(frame(opcode: 0x0, fin: false, length: big / 2 - 1, payload: 10))
        #expect(budget.heldBytes == 2 * (big - MessageBudget.perTabAllowance) - 1)
        try third.writeInbound(frame(length: big, payload: 100))
        #expect(try closeCode(third) == 1013)
        // A small message of the third kind's needs nothing of the budget.
        let fourth = try upgradedChannel(budget)
        try fourth.writeInbound(frame(length: 2000))
        #expect(try closeCode(fourth) == nil)
        // The first message ends: its share comes back; a closed tab's too.
        try first.writeInbound(ByteBuffer(bytes: [0x61]))
        #expect(budget.heldBytes == big / 2 + big / 2 - 1 - MessageBudget.perTabAllowance)
        _ = try second.finish()
        #expect(budget.heldBytes == 0)
    }
}
