import Foundation
import Testing
import TodoOwner
import TodoProtocol
import TodoStoreInterface
import TodoViewModels

/// Two instances of a shared list, as two bare state machines: what one
/// commits reaches the other as the store's change log would bring it.
@Suite struct ReplanningTests {
    static let snapshot = ListSnapshot()

    static func instance(_ name: String) -> OwnerState {
        OwnerState(loaded: LoadedList(snapshot: snapshot, resumeRecord: nil, shared: ("shared-epoch", 0), instance: name))
    }

    /// Takes `owner`'s batch and says it committed, returning it as the change log keeps it.
    static func commit(_ owner: inout OwnerState) throws -> [StoredTransaction] {
        let batchTaken = owner.takeBatch()
        let batch = try #require(batchTaken)
        let stored = batch.map {
            StoredTransaction(
                revision: $0.revision, instance: owner.instance!, cause: $0.cause.map(OwnerState.json), write: $0.write ?? ListWrite())
        }
        owner.finishCommit(.committed)
        _ = owner.endTurn()
        return stored
    }

    /// One line in a turn of its own; its replies, if any, go to `connections`.
    static func send(_ line: String, to owner: inout OwnerState, from connection: Int, connections: RecordedConnections = .init()) {
        owner.handle(IncomingLine.parse(Data(line.utf8)), from: connection)
        connections.endTurn(of: &owner)
    }

    /// B's edit was planned on revision 0, but A committed revision 1 first:
    /// B applies A's, carries its own request out again on top, and its
    /// reply reports revision 2. Both hold the same list.
    @Test func anEditPlannedOnAnOldStateIsCarriedOutAgainAfterTheOthers() throws {
        var a = Self.instance("a")
        var b = Self.instance("b")
        var bConnections = RecordedConnections()
        let client = bConnections.connect(1, to: &b)
        a.connect(1) { _, _ in Data("hello\n".utf8) }

        Self.send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"from a"}}"#, to: &a, from: 1)
        let fromA = try Self.commit(&a)
        Self.send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"from b"}}"#, to: &b, from: 1, connections: bConnections)
        #expect(b.revision == 1)

        let others = b.integrate(fromA)
        others.forEach { b.publish($0) }
        #expect(others.map(\.revision) == [1])
        #expect(b.publishedRevision == 1 && b.revision == 2)
        let replannedTaken = b.takeBatch()
        let replanned = try #require(replannedTaken)
        #expect(replanned.map(\.revision) == [2])
        b.finishCommit(.committed)
        bConnections.endTurn(of: &b)
        let reply = try #require(client.lines.last)
        #expect(reply.contains(#""title":"from b""#))
        #expect(b.itemCount == 2)
        #expect(a.itemCount == 1)
    }

    /// An edit of an item another instance deleted meanwhile is refused, as
    /// it would have been had it come later.
    @Test func anEditOfAnItemAnotherInstanceDeletedIsRefused() throws {
        var a = Self.instance("a")
        var b = Self.instance("b")
        a.connect(1) { _, _ in Data("hello\n".utf8) }
        var bConnections = RecordedConnections()
        let client = bConnections.connect(1, to: &b)
        Self.send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"milk"}}"#, to: &a, from: 1)
        _ = b.integrate(try Self.commit(&a))
        Self.send(#"{"jsonrpc":"2.0","id":2,"method":"todo.remove","params":{"id":1}}"#, to: &a, from: 1)
        let removal = try Self.commit(&a)

        Self.send(#"{"jsonrpc":"2.0","id":7,"method":"todo.setDone","params":{"id":1,"done":true}}"#, to: &b, from: 1, connections: bConnections)
        _ = b.integrate(removal)
        bConnections.endTurn(of: &b)
        let nothing = b.takeBatch()
        #expect(nothing == nil)  // nothing of b's is left to commit
        let reply = try #require(client.lines.last)
        #expect(reply.contains(#""id":7"#))
        #expect(reply.contains(#""name":"todo.notFound""#))
        #expect(b.itemCount == 0)
    }
}
