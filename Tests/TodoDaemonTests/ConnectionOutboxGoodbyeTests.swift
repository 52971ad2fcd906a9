import Foundation
import Synchronization
import Testing
@testable import TodoDaemon

/// When a goodbye can reach the client: the outbox on a clock of the
/// test's own, the test playing the writer and the socket.
@Suite struct ConnectionOutboxGoodbyeTests {
    /// A clock that moves only when the test says.
    final class ManualClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(by duration: Duration) { instant.withLock { $0 += duration } }
    }

    static let stallTimeout = Duration.seconds(30)

    static func outbox(on clock: ManualClock) -> ConnectionOutbox {
        ConnectionOutbox(
            connectionID: 1, limits: .init(softBytes: 100, hardBytes: 1000, stallTimeout: stallTimeout),
            drained: { _ in }, saidGoodbye: { _, _ in }, now: { clock.now })
    }

    static func line(_ byte: UInt8, count: Int) -> Data { Data(repeating: byte, count: count - 1) + [10] }

    /// A client that sent requests for a while without reading, as a
    /// flooding client does, then reads: the replies it had not read are
    /// dropped, and the goodbye comes right after the batch the socket was
    /// already given, however long the client had been silent.
    @Test func aClientThatFloodsAndReadsAfterwardsGetsItsGoodbyeAfterTheBatchInFlight() throws {
        let clock = ManualClock()
        let outbox = Self.outbox(on: clock)
        outbox.send(Self.line(UInt8(ascii: "a"), count: 500))
        guard case .write(let inFlight) = outbox.takeNext() else { throw Unexpected("nothing to write") }
        // Almost a stall timeout later, its replies pass the hard limit.
        clock.advance(by: .seconds(29))
        for _ in 1...3 { outbox.send(Self.line(UInt8(ascii: "b"), count: 500)) }
        // Past a stall timeout since anything was written, but not since the goodbye.
        clock.advance(by: .seconds(2))
        #expect(outbox.checkStall() == .fine, "closed before the client had a stall timeout to read its goodbye")
        outbox.didWrite(inFlight.count)
        guard case .write(let last) = outbox.takeNext() else { throw Unexpected("no goodbye to write") }
        let text = String(decoding: last, as: UTF8.self)
        #expect(text.hasPrefix(#"{"jsonrpc":"2.0","method":"connection.goodbye""#) && text.contains(#""reason":"outboxFull""#), "\(text)")
        #expect(!text.contains("bbbb"), "replies that were dropped were written")
        outbox.didWrite(last.count)
        #expect(outbox.takeNext() == .close)
    }

    /// A client that never reads again cannot get its goodbye: it is closed
    /// a stall timeout after the goodbye was queued, not before.
    @Test func aClientThatNeverReadsIsClosedAStallTimeoutAfterItsGoodbye() throws {
        let clock = ManualClock()
        let outbox = Self.outbox(on: clock)
        outbox.send(Self.line(UInt8(ascii: "a"), count: 500))
        guard case .write = outbox.takeNext() else { throw Unexpected("nothing to write") }
        clock.advance(by: .seconds(10))
        for _ in 1...3 { outbox.send(Self.line(UInt8(ascii: "b"), count: 500)) }
        clock.advance(by: Self.stallTimeout - .seconds(1))
        #expect(outbox.checkStall() == .fine)
        clock.advance(by: .seconds(2))
        #expect(outbox.checkStall() == .close)
    }

    /// A stalled client is told first; the stall clock starts again there.
    @Test func aStalledClientIsToldThenClosedAStallTimeoutLater() throws {
        let clock = ManualClock()
        let outbox = Self.outbox(on: clock)
        outbox.sendEvent(Self.line(UInt8(ascii: "e"), count: 50))
        guard case .write(let inFlight) = outbox.takeNext() else { throw Unexpected("nothing to write") }
        clock.advance(by: Self.stallTimeout + .seconds(1))
        #expect(outbox.checkStall() == .sayGoodbye)
        clock.advance(by: Self.stallTimeout - .seconds(1))
        #expect(outbox.checkStall() == .fine)
        // It reads at last: the goodbye follows what was in flight.
        outbox.didWrite(inFlight.count)
        guard case .write(let last) = outbox.takeNext() else { throw Unexpected("no goodbye to write") }
        #expect(String(decoding: last, as: UTF8.self).contains(#""reason":"stalled""#))
    }
}

/// The writer was told something else than the test expects.
struct Unexpected: Error {
    let what: String
    init(_ what: String) { self.what = what }
}
