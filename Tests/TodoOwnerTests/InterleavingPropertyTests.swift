import Foundation
import TestSupport
import Testing
import TodoOwner
import TodoProtocol
import TodoStoreInterface
import TodoViewModels

/// Three instances of a shared list as bare state machines, driven by a
/// seeded sequence of everything that happens to them at once: clients'
/// edits on every instance, commits that win, commits refused because
/// another instance came first (the batch is carried out again on what that
/// one stored), catch-up reads, a store that fails a commit, and watchers
/// that fell behind and are sent their views afresh (`resync`, what the
/// shell asks once a lagging connection has read its queue). The store is
/// a change log here; the instances are the real `OwnerState`. Whatever
/// happens, once each has read the log to the end: all hold the same list,
/// every request was answered exactly once, nothing is in the log that no
/// client was told of, and no watcher saw a revision go back.
@Suite struct InterleavingPropertyTests {
    struct Instance {
        var owner: OwnerState
        var connections: RecordedConnections
        var clients: [RecordedLines]
        /// The batch on its way to the store, and the revision it was planned on.
        var inFlight: (batch: [StoredTransaction], base: Int)?
        /// Requests sent by each client, by id.
        var sent: [[Int]]
    }

    struct World {
        var instances: [Instance]
        var log: [StoredTransaction] = []
        var random: SeededRandom
        var nextRequest = 1
        var titles = 0

        init(seed: UInt64) {
            random = SeededRandom(seed: seed)
            instances = ["a", "b", "c"].map { name in
                var owner = OwnerState(
                    loaded: LoadedList(snapshot: ListSnapshot(), resumeRecord: nil, shared: ("epoch", 0), instance: name))
                var connections = RecordedConnections()
                let clients = [1, 2].map { id in
                    let client = connections.connect(id, to: &owner) { _, _ in Data("hello\n".utf8) }
                    let subscribe = #"{"jsonrpc":"2.0","id":0,"method":"view.subscribe","params":{}}"#
                    owner.handle(IncomingLine.parse(Data(subscribe.utf8)), from: id)
                    return client
                }
                connections.endTurn(of: &owner)
                return Instance(owner: owner, connections: connections, clients: clients, inFlight: nil, sent: [[0], [0]])
            }
        }

        /// A request a person might make, on an item that may or may not still exist.
        mutating func request() -> String {
            let id = nextRequest
            nextRequest += 1
            let item = Int.random(in: 1...max(1, titles), using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1:
                titles += 1
                return #"{"jsonrpc":"2.0","id":\#(id),"method":"todo.add","params":{"title":"item \#(titles)"}}"#
            case 2:
                return #"{"jsonrpc":"2.0","id":\#(id),"method":"todo.setDone","params":{"id":\#(item),"done":true}}"#
            case 3:
                return #"{"jsonrpc":"2.0","id":\#(id),"method":"todo.edit","params":{"id":\#(item),"title":"renamed \#(id)"}}"#
            default:
                return #"{"jsonrpc":"2.0","id":\#(id),"method":"todo.remove","params":{"id":\#(item)}}"#
            }
        }

        /// The log after `revision`, as the store's change log brings it.
        func missed(after revision: Int) -> [StoredTransaction] { Array(log.dropFirst(revision)) }

        mutating func catchUp(_ index: Int) {
            let others = instances[index].owner.integrate(missed(after: instances[index].owner.publishedRevision))
            others.forEach { instances[index].owner.publish($0) }
        }

        mutating func startCommit(_ index: Int) {
            guard instances[index].inFlight == nil, let batch = instances[index].owner.takeBatch() else { return }
            let name = instances[index].owner.instance!
            let stored = batch.map {
                StoredTransaction(revision: $0.revision, instance: name, cause: $0.cause.map(OwnerState.json), write: $0.write ?? ListWrite())
            }
            instances[index].inFlight = (stored, instances[index].owner.publishedRevision)
        }

        /// The store answers the commit in flight: stored if the list is
        /// still at its base, else refused (another came first) and the
        /// instance reads what it missed, which carries its requests out again.
        mutating func finishCommit(_ index: Int, failing: Bool) {
            guard let (batch, base) = instances[index].inFlight else { return }
            instances[index].inFlight = nil
            if failing {
                instances[index].owner.finishCommit(.notStored(StoreUnavailable.unreachable(server: "test", reason: "cut off")))
                instances[index].owner.takeBack(
                    because: BatchWriteError(stored: 0, underlying: StoreUnavailable.unreachable(server: "test", reason: "cut off")))
            } else if log.count == base {
                log += batch
                instances[index].owner.finishCommit(.committed)
            } else {
                instances[index].owner.finishCommit(.conflict(head: log.count))
                catchUp(index)
            }
        }

        mutating func step() {
            let index = Int.random(in: 0..<instances.count, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3:
                let client = Int.random(in: 0..<2, using: &random)
                let line = request()
                instances[index].sent[client].append(nextRequest - 1)
                instances[index].owner.handle(IncomingLine.parse(Data(line.utf8)), from: client + 1)
            case 4, 5: startCommit(index)
            case 6, 7: finishCommit(index, failing: false)
            case 8: finishCommit(index, failing: Int.random(in: 0..<4, using: &random) == 0)
            case 9 where Bool.random(using: &random): instances[index].owner.resync(connection: Int.random(in: 1...2, using: &random))
            default: if instances[index].inFlight == nil { catchUp(index) }
            }
            instances[index].connections.endTurn(of: &instances[index].owner)
        }

        /// Every commit goes through and every instance reads the log to the end.
        mutating func settle() {
            for _ in 0..<50 {
                for index in instances.indices {
                    finishCommit(index, failing: false)
                    catchUp(index)
                    startCommit(index)
                    finishCommit(index, failing: false)
                    instances[index].connections.endTurn(of: &instances[index].owner)
                }
                if instances.allSatisfy({ $0.owner.isSettled && $0.owner.publishedRevision == log.count }) { return }
            }
        }
    }

    /// The replies' ids, in the order they came, and whether each said yes.
    static func replies(_ client: RecordedLines) -> [(id: Int, ok: Bool)] {
        client.replies.compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let id = object["id"] as? Int
            else { return nil }
            return (id, object["result"] != nil)
        }
    }

    /// The revisions of the `view.changed` events a client got, in order.
    static func eventRevisions(_ client: RecordedLines) -> [Int] {
        client.events.compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["params"] as? [String: Any])?["revision"] as? Int
        }
    }

    @Test(arguments: 0..<16 as Range<UInt64>)
    func everyInstanceEndsWithTheSameListAndEveryRequestIsAnsweredOnce(seed: UInt64) throws {
        var world = World(seed: seed)
        for _ in 0..<120 { world.step() }
        world.settle()

        let lists = world.instances.map { instance in
            instance.owner.viewModel.snapshot.items.map { "\($0.id.rawValue) \($0.title) \($0.isDone)" }.sorted()
        }
        #expect(Set(lists.map { $0.joined(separator: "|") }).count == 1, "seed \(seed): \(lists)")
        #expect(world.log.enumerated().allSatisfy { $0.offset + 1 == $0.element.revision }, "the log's revisions run 1, 2, 3 …")
        var acknowledgedEdits = 0
        for instance in world.instances {
            #expect(instance.owner.isSettled && instance.owner.publishedRevision == world.log.count, "seed \(seed)")
            for (client, sent) in zip(instance.clients, instance.sent) {
                let answered = Self.replies(client)
                #expect(answered.map(\.id) == sent, "seed \(seed): each request answered once, in order")
                acknowledgedEdits += answered.filter(\.ok).count - 1  // the subscription
                let revisions = Self.eventRevisions(client)
                #expect(zip(revisions, revisions.dropFirst()).allSatisfy { $0 <= $1 }, "seed \(seed): \(revisions)")
            }
        }
        // An edit acknowledged is in the log; one refused is not (a request
        // refused as invalid, an item already gone, writes nothing either).
        let fromClients = world.log.filter { $0.cause != nil }.count
        #expect(fromClients <= acknowledgedEdits, "seed \(seed): \(fromClients) in the log, \(acknowledgedEdits) acknowledged")
    }
}
