import Foundation
import Synchronization
import Testing
@testable import TodoDaemon

/// The outbound budget of one connection, without a socket: lines go in as
/// the host and router put them, and the test plays the writer.
@Suite struct ConnectionOutboxTests {
    final class Goodbyes: Sendable {
        let reasons = Mutex<[ConnectionOutbox.GoodbyeReason]>([])
        var all: [ConnectionOutbox.GoodbyeReason] { reasons.withLock { $0 } }
    }

    static func outbox(soft: Int = 100, hard: Int = 1000, goodbyes: Goodbyes) -> ConnectionOutbox {
        ConnectionOutbox(
            connectionID: 1, limits: .init(softBytes: soft, hardBytes: hard, stallTimeout: .seconds(30)),
            drained: { _ in }, saidGoodbye: { _, reason in goodbyes.reasons.withLock { $0.append(reason) } })
    }

    static func line(_ byte: UInt8, count: Int) -> Data { Data(repeating: byte, count: count - 1) + [10] }

    /// Everything the writer would write now, as lines.
    static func drain(_ outbox: ConnectionOutbox) async -> [Data] {
        var lines: [Data] = []
        outbox.finish()
        while case .write(let batch) = outbox.takeNext() {
            lines += batch.split(separator: 10, omittingEmptySubsequences: true).map { Data($0) + [10] }
            outbox.didWrite(batch.count)
        }
        return lines
    }

    @Test func aReplyLongerThanTheHardLimitReachesAClientThatReads() async {
        let goodbyes = Goodbyes()
        let outbox = Self.outbox(goodbyes: goodbyes)
        let snapshot = Self.line(UInt8(ascii: "s"), count: 5000)
        outbox.send(snapshot)
        #expect(goodbyes.all.isEmpty)
        #expect(await Self.drain(outbox) == [snapshot])
    }

    @Test func aClientThatDoesNotReadIsStoppedByItsNextLine() async {
        let goodbyes = Goodbyes()
        let outbox = Self.outbox(goodbyes: goodbyes)
        outbox.send(Self.line(UInt8(ascii: "a"), count: 5000))
        outbox.send(Self.line(UInt8(ascii: "b"), count: 10))
        #expect(goodbyes.all == [.outboxFull])
        let written = await Self.drain(outbox)
        #expect(written.count == 1)
        #expect(String(decoding: written[0], as: UTF8.self).contains(#""method":"connection.goodbye""#))
        #expect(String(decoding: written[0], as: UTF8.self).contains(#""reason":"outboxFull""#))
    }

    @Test func eventsPastTheSoftLimitAreDroppedWithOneLaggingNotice() async {
        let goodbyes = Goodbyes()
        let outbox = Self.outbox(goodbyes: goodbyes)
        let reply = Self.line(UInt8(ascii: "r"), count: 20)
        outbox.send(reply)
        for _ in 0..<10 { outbox.sendEvent(Self.line(UInt8(ascii: "e"), count: 30)) }
        let written = await Self.drain(outbox).map { String(decoding: $0, as: UTF8.self) }
        #expect(goodbyes.all.isEmpty)
        #expect(written.first == String(decoding: reply, as: UTF8.self))
        #expect(written.filter { $0.contains("connection.lagging") }.count == 1)
        #expect(!written.contains { $0.hasPrefix("eee") })
    }

    @Test func oneEventLongerThanTheSoftLimitIsNotLagging() async {
        let goodbyes = Goodbyes()
        let outbox = Self.outbox(goodbyes: goodbyes)
        let reset = Self.line(UInt8(ascii: "e"), count: 500)
        outbox.sendEvent(reset)
        #expect(await Self.drain(outbox) == [reset])
    }
}
