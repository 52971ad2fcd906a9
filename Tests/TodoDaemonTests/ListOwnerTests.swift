import Foundation
import Synchronization
import Testing
import TodoModel
import TodoProtocol
import TodoStorage
import TodoStoreInterface
import TodoViewModels
@testable import TodoDaemon
import TodoViewState

/// The state owner in-process: real (in-memory) SQLite, the real writer
/// thread, no socket. The end-to-end tests repeat the essentials over a socket.
@Suite struct ListOwnerTests {
    let store: SQLiteTodoStore
    let owner: ListOwner
    let client: OwnerClient

    init() throws {
        store = try SQLiteTodoStore()
        owner = try ListOwner(store: store)
        client = OwnerClient(owner: owner)
    }

    private func send(_ line: String) async -> IncomingMessage? { await client.send(line) }
    private func error(_ line: String) async -> RPCError? { await client.error(line) }

    /// The status line's counts, then none once the owner shut down: a
    /// refresh due just after the stop must not hand work to a loop that is
    /// gone (NIO drops it, logs an error, and the caller would wait forever).
    @Test(.timeLimit(.minutes(1))) func statusCountsEndWithTheShutdown() async throws {
        _ = await send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"milk"}}"#)
        let counts = try #require(await owner.statusCounts())
        #expect((counts.items, counts.clients, counts.subscriptions) == (1, 1, 0))
        owner.shutdown()
        #expect(await owner.statusCounts() == nil)
    }

    /// A client may send before its greeting (todoctl does): its first line
    /// can reach the owner in a turn that was scheduled before the
    /// connection was registered. The turn registers it first; the line was
    /// dropped, and the client waited for a reply that never came.
    @Test(.timeLimit(.minutes(1))) func aLineThatCameWithANewConnectionIsAnswered() async throws {
        _ = await send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"milk"}}"#)
        let client = self.client
        let second = await owner.run { owner in
            // On the owner's loop, so that all three are queued before the turn runs.
            client.submit(#"{"jsonrpc":"2.0","id":2,"method":"todo.add","params":{"title":"bread"}}"#)
            let second = OwnerClient(id: 2, owner: owner)
            second.submit(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"eggs"}}"#)
            return second
        }
        #expect(await second.nextReply()?.contains(#""title":"eggs""#) == true)
        #expect(await client.nextReply()?.contains(#""title":"bread""#) == true)
    }

    /// An import sent in parts: kept for its connection until the last part,
    /// dropped on a part of another format, and the last part imports all.
    @Test func anImportInPartsIsOneImportAndAMismatchedPartDropsWhatWasStaged() async throws {
        func part(_ id: Int, _ format: String, _ text: String, more: Bool) -> String {
            #"{"jsonrpc":"2.0","id":\#(id),"method":"todo.import","params":{"format":"\#(format)","text":"\#(text)","more":\#(more)}}"#
        }
        guard case .response(_, let staged)? = await send(part(1, "todotxt", "first\\nsec", more: true)) else {
            Issue.record("no reply to the first part"); return
        }
        #expect(try staged.result(ImportTodos.Result.self).staged == 9)  // "first\nsec"
        let mismatch = await error(part(2, "ical", "BEGIN", more: false))
        #expect(mismatch?.name == "protocol.invalidParams")
        #expect(mismatch?.message.contains("one format") == true)
        #expect(try store.load().items.isEmpty)
        // What was staged is gone: this part is imported alone.
        _ = await send(part(3, "todotxt", "first\\nsec", more: true))
        guard case .response(_, let done)? = await send(part(4, "todotxt", "ond\\nthird", more: false)) else {
            Issue.record("no reply to the last part"); return
        }
        let result = try done.result(ImportTodos.Result.self)
        #expect((result.added, result.staged) == (3, 0))
        #expect(result.done == "import from todo.txt: add 3 items")
        #expect(try store.load().items.map(\.title).sorted() == ["first", "second", "third"])
    }

    @Test func addThenGet() async throws {
        guard case .response(_, let added)? = await send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":" milk "}}"#)
        else { Issue.record("no result"); return }
        let row = try added.result(ItemResult.self).item
        #expect((row.id, row.title, row.done) == (1, "milk", false))

        guard case .response(_, let list)? = await send(#"{"jsonrpc":"2.0","id":2,"method":"view.get"}"#)
        else { Issue.record("no result"); return }
        #expect(try list.result(TodoListState.self).properties.itemsLeft == "1 item left")
    }

    @Test func badInputGetsPreciseErrorsAndWritesNothing() async throws {
        #expect(await error("this is not json")?.code == -32700)
        #expect(await error(#"{"jsonrpc":"2.0","id":1,"method":"todo.fly"}"#)?.code == -32601)
        let blank = await error(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"   "}}"#)
        #expect(blank?.code == -32602)
        #expect(blank?.name == "todo.invalidTitle")
        #expect(blank?.message.contains("blank") == true)
        #expect(await error(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":3}}"#)?.code == -32602)
        #expect(await error(#"{"jsonrpc":"2.0","id":1,"method":"todo.setDone","params":{"id":5,"done":true}}"#)?.name == "todo.notFound")
        #expect(try store.load().items.isEmpty)
    }

    @Test func notificationsGetNoReplyButAreCarriedOut() async throws {
        client.submit(#"{"jsonrpc":"2.0","method":"todo.add","params":{"title":"quiet"}}"#)
        // Replies keep request order: once this one is back, the add is stored.
        _ = await send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"loud"}}"#)
        #expect(try store.load().items.map(\.title) == ["quiet", "loud"])
    }

    @Test func pipelinedRequestsAreAnsweredInOrderAndStoredTogether() async throws {
        for index in 1...50 {
            client.submit(#"{"jsonrpc":"2.0","id":\#(index),"method":"todo.add","params":{"title":"item \#(index)"}}"#)
        }
        client.submit(#"{"jsonrpc":"2.0","id":"status","method":"server.status"}"#)
        var ids: [String] = []
        for _ in 0..<51 {
            let reply = try #require(await client.nextReply())
            let id = try #require(reply.split(separator: ",").first)
            ids.append(String(id.dropFirst(#"{"id":"#.count)))
        }
        #expect(ids == (1...50).map(String.init) + [#""status""#])
        #expect(try store.load().items.count == 50)
    }

    @Test func aSubscriberGetsTheEventBeforeTheReply() async throws {
        guard case .response(_, let subscribed)? = await send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe"}"#)
        else { Issue.record("no result"); return }
        let start = try subscribed.result(SubscribeListView.Result.self)
        var clientState = try #require(start.state?.fullState)
        #expect(clientState.rows.isEmpty)

        _ = await send(#"{"jsonrpc":"2.0","id":2,"method":"todo.add","params":{"title":"milk"}}"#)
        let events = client.events
        #expect(events.count == 1)
        let event = try IncomingMessage.parse(Data(events[0].utf8))
        guard case .notification("view.changed", let payload) = event else { Issue.record("\(event)"); return }
        let change = try payload.params(ListViewChanged.Params.self)
        #expect(change.subscription == start.subscription)
        #expect(change.revision == start.revision + 1)
        #expect(change.body.properties["itemsLeft"] == .string("1 item left"))
        #expect(change.body.cause == Cause(connection: 1, request: .number(2)))
        try change.body.apply(to: &clientState)
        #expect(clientState.rows.map(\.title) == ["milk"])
    }

    @Test func aRefusedTransactionChangesNothingAndNamesTheCommand() async throws {
        _ = await send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"keep"}}"#)
        let refused = await error(
            #"{"jsonrpc":"2.0","id":2,"method":"transaction","params":{"commands":[{"method":"todo.add","params":{"title":"new"}},{"method":"todo.setDone","params":{"id":1,"done":true}},{"method":"todo.remove","params":{"id":7}}]}}"#)
        #expect(refused?.name == "todo.notFound")
        #expect(refused?.data?.index == 2)
        let items = try store.load().items
        #expect(items.map(\.title) == ["keep"])
        #expect(items.first?.isDone == false)
        #expect(try store.load().history.undoSteps.count == 1)
    }

    @Test func aTransactionIsOneUndoStepAndOneEvent() async throws {
        _ = await send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe"}"#)
        _ = await send(
            #"{"jsonrpc":"2.0","id":2,"method":"transaction","params":{"commands":[{"method":"todo.add","params":{"title":"a"}},{"method":"todo.add","params":{"title":"b"}},{"method":"todo.setDone","params":{"id":1,"done":true}}]}}"#)
        #expect(client.events.count == 1)
        #expect(try store.load().history.undoSteps.count == 1)
        _ = await send(#"{"jsonrpc":"2.0","id":3,"method":"todo.undo"}"#)
        #expect(try store.load().items.isEmpty)
    }

    @Test func resumingReplaysWhatWasMissedFromTheHistory() async throws {
        guard case .response(_, let subscribed)? = await send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe"}"#)
        else { Issue.record("no result"); return }
        let start = try subscribed.result(SubscribeListView.Result.self)
        var clientState = try #require(start.state?.fullState)
        let other = OwnerClient(id: 2, owner: owner)
        owner.disconnect(client.id)
        for title in ["a", "b", "c"] {
            _ = await other.send(#"{"jsonrpc":"2.0","id":2,"method":"todo.add","params":{"title":"\#(title)"}}"#)
        }
        let resume = #"{"jsonrpc":"2.0","id":3,"method":"view.subscribe","params":{"since":{"epoch":"\#(start.epoch)","revision":0}}}"#
        guard case .response(_, let resumed)? = await other.send(resume) else { Issue.record("no result"); return }
        let result = try resumed.result(SubscribeListView.Result.self)
        #expect(result.mode == .replay)
        #expect(result.replay.map(\.revision) == [1, 2, 3])
        for body in result.replay { try body.apply(to: &clientState) }
        guard case .response(_, let fresh)? = await other.send(#"{"jsonrpc":"2.0","id":4,"method":"view.get"}"#)
        else { Issue.record("no result"); return }
        #expect(clientState == (try fresh.result(TodoListState.self)))
    }

    @Test func aCommandThatChangesNothingPushesNothing() async throws {
        _ = await send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"milk"}}"#)
        _ = await send(#"{"jsonrpc":"2.0","id":2,"method":"view.subscribe"}"#)
        _ = await send(#"{"jsonrpc":"2.0","id":3,"method":"todo.setDone","params":{"id":1,"done":false}}"#)
        #expect(client.events.isEmpty)
    }

    @Test func aDisconnectedClientGetsNoMoreEvents() async throws {
        _ = await send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe"}"#)
        owner.disconnect(client.id)
        let other = OwnerClient(id: 2, owner: owner)
        _ = await other.send(#"{"jsonrpc":"2.0","id":2,"method":"todo.add","params":{"title":"milk"}}"#)
        #expect(client.events.isEmpty)
        #expect(await owner.subscriptionCount == 0)
    }
}

/// A store whose writes fail on demand, as a full disk makes them: the
/// owner must answer `store.writeFailed`, keep memory equal to the store, and
/// keep serving.
@Suite struct FailedWriteTests {
    final class FailingStore: LocalListStore {
        let real: SQLiteTodoStore
        let failing = Atomic<Bool>(false)
        init() throws { real = try SQLiteTodoStore() }

        func load() throws -> ListSnapshot { try real.load() }
        func write(_ batch: [ListWrite]) throws(BatchWriteError) {
            if failing.load(ordering: .relaxed) {
                throw BatchWriteError(stored: 0, underlying: CocoaError(.fileWriteOutOfSpace))
            }
            try real.write(batch)
        }
        func synchronize() throws { try real.synchronize() }
        func resumeRecord() throws -> ResumeRecord? { try real.resumeRecord() }
        var hasPendingResumeRecord: Bool { real.hasPendingResumeRecord }
        func saveResumeRecord(_ record: ResumeRecord) throws { try real.saveResumeRecord(record) }
    }

    @Test func aFailedWriteIsRefusedTakenBackAndTheDaemonGoesOn() async throws {
        let store = try FailingStore()
        let owner = try ListOwner(store: store)
        let client = OwnerClient(owner: owner)
        let watcher = OwnerClient(id: 2, owner: owner)
        _ = await client.send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"kept"}}"#)
        guard case .response(_, let subscribed)? = await watcher.send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe"}"#)
        else { Issue.record("no subscription"); return }
        let start = try subscribed.result(SubscribeListView.Result.self)

        store.failing.store(true, ordering: .relaxed)
        for index in 2...4 {
            client.submit(#"{"jsonrpc":"2.0","id":\#(index),"method":"todo.add","params":{"title":"lost \#(index)"}}"#)
        }
        client.submit(#"{"jsonrpc":"2.0","id":5,"method":"todo.setDone","params":{"id":1,"done":true}}"#)
        for _ in 2...5 {
            let reply = try IncomingMessage.parse(Data(try #require(await client.nextReply()).utf8))
            guard case .failure(_, let error) = reply else { Issue.record("acknowledged: \(reply)"); return }
            #expect(error.name == "store.writeFailed")
        }
        #expect(watcher.events.isEmpty)  // nothing announced

        store.failing.store(false, ordering: .relaxed)
        guard case .response(_, let list)? = await client.send(#"{"jsonrpc":"2.0","id":6,"method":"view.get"}"#)
        else { Issue.record("no result"); return }
        let state = try list.result(TodoListState.self)
        #expect(state.rows.map(\.title) == ["kept"])
        #expect(state.rows.first?.done == false)
        #expect(try store.load() == store.real.load())
        // Revisions stay gap-free and ids unused: the next edit is the next of both.
        guard case .response(_, let added)? = await client.send(#"{"jsonrpc":"2.0","id":7,"method":"todo.add","params":{"title":"after"}}"#)
        else { Issue.record("no result"); return }
        #expect(try added.result(ItemResult.self).item.id == 2)
        let event = try IncomingMessage.parse(Data(try #require(watcher.events.first).utf8))
        guard case .notification(_, let payload) = event else { Issue.record("\(event)"); return }
        #expect(try payload.params(ListViewChanged.Params.self).revision == start.revision + 1)
        #expect(try store.real.load().items.map(\.title) == ["kept", "after"])
    }
}
