import Foundation
import Testing
import TodoOwner
import TodoProtocol
import TodoStoreInterface
import TodoViewModels

/// What a turn hands its shell: the lines for each connection in the order
/// decided, and the rest of what the state cannot do itself. Read here
/// straight from `endTurn`, with no outbox in between.
@Suite struct TurnActionsTests {
    var owner = OwnerState(loaded: LoadedList(snapshot: ListSnapshot(), resumeRecord: nil))

    mutating func handle(_ line: String, from connection: Int) {
        owner.handle(IncomingLine.parse(Data(line.utf8)), from: connection)
    }

    static func text(_ line: OutgoingLine) -> String {
        switch line {
        case .message(let data): "message " + String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        case .event(let data): "event " + String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        case .resumeEvents(let lines): "resume \(lines.count)"
        case .finish: "finish"
        }
    }

    static func add(_ id: Int) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"todo.add","params":{"title":"item \#(id)"}}"#
    }

    static let subscribe = #"{"jsonrpc":"2.0","id":100,"method":"view.subscribe","params":{}}"#

    mutating func commitEverything() {
        guard let batch = owner.takeBatch() else { return }
        owner.finishCommit(.written(stored: batch.count { $0.write != nil }, failure: nil))
    }

    @Test mutating func theGreetingIsAConnectionsFirstLineAndTheStatusLineHearsOfIt() throws {
        owner.connect(7) { epoch, revision in Data("hello \(epoch) \(revision)\n".utf8) }
        let actions = owner.endTurn()
        #expect(actions.connections == [7])
        #expect(actions.lines(for: 7).map(Self.text) == ["message hello \(owner.epoch) 0"])
        #expect(actions.statusChanged)
        let next = owner.endTurn()
        #expect(next.lines.isEmpty && !next.statusChanged, "what a turn hands over is handed over once")
    }

    /// One entry per connection, in the order each was first given a line,
    /// and on each the events of a transaction before the reply that reports it.
    @Test mutating func linesAreGroupedByConnectionInTheOrderDecided() throws {
        owner.connect(2) { _, _ in Data("hello\n".utf8) }
        owner.connect(1) { _, _ in Data("hello\n".utf8) }
        handle(Self.subscribe, from: 1)
        handle(Self.subscribe, from: 2)
        _ = owner.endTurn()
        handle(Self.add(1), from: 1)
        let waiting = owner.endTurn()
        #expect(waiting.lines.isEmpty, "nothing durable yet: nothing to send")
        commitEverything()
        let actions = owner.endTurn()
        #expect(actions.connections == [1, 2], "in subscription order")
        let writer = actions.lines(for: 1).map(Self.text)
        try #require(writer.count == 2)
        #expect(writer[0].hasPrefix(#"event {"jsonrpc":"2.0","method":"view.changed""#))
        #expect(writer[1].hasPrefix("message ") && writer[1].contains(#""id":1,"#))
        #expect(actions.lines(for: 2).map(Self.text).allSatisfy { $0.hasPrefix("event ") })
        #expect(actions.lines.last?.connection == 1, "the reply after every subscriber's event")
    }

    @Test mutating func aConnectionThatWentInTheTurnIsSentNothing() {
        owner.connect(1) { _, _ in Data("hello\n".utf8) }
        owner.connect(2) { _, _ in Data("hello\n".utf8) }
        owner.disconnect(1)
        #expect(owner.endTurn().connections == [2])
        #expect(owner.connectionCount == 1)
    }

    /// A connection ending with replies owed: the replies, its last line,
    /// then the end, once the edit is durable.
    @Test mutating func anEndingConnectionIsFinishedAfterItsLastLine() {
        owner.connect(1) { _, _ in Data("hello\n".utf8) }
        _ = owner.endTurn()
        handle(Self.add(1), from: 1)
        owner.end(1, lastLine: Data("bye\n".utf8))
        #expect(owner.endTurn().lines.isEmpty)
        commitEverything()
        let lines = owner.endTurn().lines.map { Self.text($0.line) }
        #expect(lines.count == 3)
        #expect(lines.suffix(2) == ["message bye", "finish"])
    }

    /// A lagging connection that caught up is sent its subscriptions afresh
    /// as one reset, the outbox's cue to let events flow again; not while an
    /// edit waits to be stored, which a failed write could take back.
    @Test mutating func aConnectionThatCaughtUpIsResetOnceNothingWaitsToBeStored() throws {
        owner.connect(1) { _, _ in Data("hello\n".utf8) }
        handle(Self.subscribe, from: 1)
        _ = owner.endTurn()
        handle(Self.add(1), from: 1)
        owner.resync(connection: 1)
        #expect(owner.endTurn().lines.isEmpty)
        commitEverything()
        let lines = owner.endTurn().lines.map { Self.text($0.line) }
        #expect(lines.contains("resume 1"), "\(lines)")
        #expect(lines.last?.contains(#""id":1,"#) == true, "the reply comes after the reset: \(lines)")
    }

    /// The outcomes of a shared list's commit: the store answered either
    /// way, and a batch that was not stored waits, as it was, for the next.
    @Test mutating func aBatchNotStoredWaitsForTheNextAndAConflictSaysTheStoreAnswered() throws {
        var shared = OwnerState(
            loaded: LoadedList(snapshot: ListSnapshot(), resumeRecord: nil, shared: ("epoch", 0), instance: "a"))
        shared.connect(1) { _, _ in Data("hello\n".utf8) }
        shared.handle(IncomingLine.parse(Data(Self.add(1).utf8)), from: 1)
        shared.storeReachable = false
        _ = shared.endTurn()
        let firstTaken = shared.takeBatch()
        let first = try #require(firstTaken)
        shared.finishCommit(.notStored(StoreUnavailable.unreachable(server: "db", reason: "timed out")))
        #expect(!shared.storeReachable && !shared.isSettled)
        let againTaken = shared.takeBatch()
        let again = try #require(againTaken)
        #expect(again.map(\.revision) == first.map(\.revision))
        shared.finishCommit(.conflict(head: 3))
        #expect(shared.storeReachable, "a refusal is an answer")
        #expect(shared.endTurn().reachabilityChanged == true)
        #expect(shared.takeBatch() != nil)
        shared.finishCommit(.committed)
        #expect(shared.isSettled && shared.publishedRevision == 1)
    }

    @Test mutating func aFailedSyncStopsEveryCommitAfterIt() throws {
        owner.connect(1) { _, _ in Data("hello\n".utf8) }
        handle(Self.add(1), from: 1)
        #expect(owner.takeBatch() != nil)
        owner.finishCommit(.syncFailed(POSIXError(.EIO)))
        handle(Self.add(2), from: 1)
        #expect(owner.takeBatch() == nil)
        #expect(owner.endTurn().lines.count == 1, "the greeting only")
    }
}
