import Foundation
import Testing
import TodoOwner
import TodoProtocol
import TodoStoreInterface
import TodoViewModels

/// The owner's state machine driven bare, as its shell drives it: lines in,
/// batches out, commit outcomes back in. No event loop, socket or disk: the
/// order of acknowledgements is decided here, so it is tested here.
@Suite struct OwnerStateTests {
    var owner = OwnerState(loaded: LoadedList(snapshot: ListSnapshot(), resumeRecord: nil))
    var connections = RecordedConnections()

    /// Connects a client and returns where its lines go.
    mutating func connect(_ id: Int) -> RecordedLines {
        connections.connect(id, to: &owner)
    }

    /// One line from `connection`, carried out in a turn of its own.
    mutating func send(_ line: String, from connection: Int) {
        owner.handle(IncomingLine.parse(Data(line.utf8)), from: connection)
        connections.endTurn(of: &owner)
    }

    static func add(_ id: Int, _ title: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"todo.add","params":{"title":"\#(title)"}}"#
    }

    static let subscribe = #"{"jsonrpc":"2.0","id":100,"method":"view.subscribe","params":{}}"#

    /// Stores the batch the shell would take, as a store that took it all.
    mutating func commitEverything() {
        guard let batch = owner.takeBatch() else { return }
        owner.finishCommit(.written(stored: batch.count { $0.write != nil }, failure: nil))
        connections.endTurn(of: &owner)
    }

    @Test mutating func aReplyWaitsUntilItsTransactionIsCommitted() throws {
        let client = connect(1)
        send(Self.add(1, "milk"), from: 1)
        #expect(client.replies.isEmpty)
        #expect(owner.revision == 1 && owner.publishedRevision == 0)
        commitEverything()
        try #require(client.replies.count == 1)
        #expect(client.replies[0].contains(#""title":"milk""#))
        #expect(owner.publishedRevision == 1)
    }

    @Test mutating func eventsComeBeforeTheReplyAndGoToEverySubscriber() throws {
        let writer = connect(1)
        let watcher = connect(2)
        send(Self.subscribe, from: 1)
        send(Self.subscribe, from: 2)
        #expect(writer.replies.count == 1 && watcher.replies.count == 1)  // nothing to commit: answered at once
        send(Self.add(1, "milk"), from: 1)
        #expect(writer.events.isEmpty && watcher.events.isEmpty)  // not durable yet: not announced
        commitEverything()
        #expect(watcher.events.count == 1)
        let lines = writer.afterGreeting
        let event = try #require(lines.firstIndex { $0.contains(#""method":"view.changed""#) })
        let reply = try #require(lines.firstIndex { $0.contains(#""id":1,"jsonrpc""#) })
        #expect(event < reply)
    }

    /// Group commit: what arrives while a batch is being committed goes in the next one.
    @Test mutating func transactionsArrivingDuringACommitGoInTheNextBatch() throws {
        let client = connect(1)
        send(Self.add(1, "a"), from: 1)
        send(Self.add(2, "b"), from: 1)
        let firstTaken = owner.takeBatch()
        let first = try #require(firstTaken)
        #expect(first.map(\.revision) == [1, 2])
        send(Self.add(3, "c"), from: 1)
        let nothing = owner.takeBatch()
        #expect(nothing == nil)  // one commit at a time
        owner.finishCommit(.written(stored: 2, failure: nil))
        connections.endTurn(of: &owner)
        #expect(client.replies.count == 2)
        let secondTaken = owner.takeBatch()
        let second = try #require(secondTaken)
        #expect(second.map(\.revision) == [3])
    }

    /// Replies keep the order of requests on a connection: a read that needs
    /// no commit waits behind an edit that does.
    @Test mutating func aReadWaitsBehindAnEarlierEditOnTheSameConnection() throws {
        let client = connect(1)
        send(Self.add(1, "milk"), from: 1)
        send(#"{"jsonrpc":"2.0","id":2,"method":"server.status"}"#, from: 1)
        #expect(client.replies.isEmpty)
        commitEverything()
        #expect(client.replies.map { $0.contains(#""id":1,"jsonrpc""#) } == [true, false])
        #expect(client.replies.last?.contains(#""id":2,"jsonrpc""#) == true)
    }

    /// A batch the store refused is taken back: memory equals the store,
    /// revisions stay gap-free, and the reply says the edit was not made.
    @Test mutating func aFailedWriteIsTakenBackAndAnsweredWithTheError() throws {
        let client = connect(1)
        send(Self.add(1, "kept"), from: 1)
        commitEverything()
        send(Self.add(2, "refused"), from: 1)
        send(Self.add(3, "after it"), from: 1)
        let batchTaken = owner.takeBatch()
        let batch = try #require(batchTaken)
        #expect(batch.count == 2)
        owner.finishCommit(.written(stored: 0, failure: BatchWriteError(stored: 0, underlying: POSIXError(.ENOSPC))))
        connections.endTurn(of: &owner)
        try #require(client.replies.count == 3)
        #expect(client.replies[1].contains(#""name":"store.writeFailed""#))
        #expect(client.replies[2].contains(#""name":"store.writeFailed""#))
        #expect(owner.revision == 1 && owner.publishedRevision == 1)
        #expect(owner.itemCount == 1)
        let nothing = owner.takeBatch()
        #expect(nothing == nil)
    }

    /// After a failed sync nothing more is acknowledged or committed.
    @Test mutating func afterAFailedSyncNothingIsAcknowledged() throws {
        let client = connect(1)
        send(Self.add(1, "milk"), from: 1)
        let taken = owner.takeBatch()
        #expect(taken != nil)
        owner.finishCommit(.syncFailed(POSIXError(.EIO)))
        connections.endTurn(of: &owner)
        send(Self.add(2, "bread"), from: 1)
        let nothing = owner.takeBatch()
        #expect(nothing == nil)
        #expect(client.replies.isEmpty)
        #expect(owner.failedSync != nil)
    }

    /// A connection that ends gets every reply it is owed, then its last line.
    @Test mutating func anEndingConnectionGetsItsRepliesThenItsLastLine() throws {
        let client = connect(1)
        send(Self.add(1, "milk"), from: 1)
        owner.end(1, lastLine: Data("bye\n".utf8))
        #expect(!client.isFinished)
        commitEverything()
        #expect(client.afterGreeting.last == "bye")
        #expect(client.isFinished)
    }

    /// A subscriber that resumes from a revision it saw is sent just what it
    /// missed; the owner's history is what makes that possible.
    @Test mutating func aSubscriberResumingIsSentWhatItMissed() throws {
        let client = connect(1)
        send(Self.add(1, "a"), from: 1)
        send(Self.add(2, "b"), from: 1)
        commitEverything()
        let since = #"{"epoch":"\#(owner.epoch)","revision":1}"#
        send(#"{"jsonrpc":"2.0","id":3,"method":"view.subscribe","params":{"since":\#(since)}}"#, from: 1)
        let reply = try #require(client.replies.last)
        #expect(reply.contains(#""mode":"replay""#))
        #expect(reply.contains(#""revision":2"#))
    }
}

extension OwnerStateTests {
    /// `sync.lease` answers from what the shell last heard from the store:
    /// the state asks no store and takes no lock.
    @Test mutating func theSyncLeaseIsAnsweredFromWhatTheShellSetLast() throws {
        let client = connect(1)
        let ask = #"{"jsonrpc":"2.0","id":5,"method":"sync.lease","params":{}}"#
        send(ask, from: 1)
        #expect(client.replies.last?.contains(#""granted":true"#) == true, "a list of its own: always held")
        owner.holdsSyncLease = false
        send(ask, from: 1)
        #expect(client.replies.last?.contains(#""granted":false"#) == true, "\(client.replies)")
    }
}
