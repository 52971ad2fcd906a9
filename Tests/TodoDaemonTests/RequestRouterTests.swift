import Foundation
import Synchronization
import Testing
import TodoDaemon
import TodoProtocol
import TodoStorage
import TodoViewModels

/// The daemon's request handling in-process: real host, real (in-memory)
/// SQLite, no socket. The end-to-end tests repeat the essentials over a socket.
@Suite struct RequestRouterTests {
    let store: SQLiteTodoStore
    let router: RequestRouter
    let connection: RequestRouter.Connection
    let pushed = PushedLines()

    init() throws {
        store = try SQLiteTodoStore()
        router = RequestRouter(host: try ViewModelHost(store: store))
        connection = RequestRouter.Connection(sink: pushed)
    }

    private func send(_ line: String) async -> IncomingMessage? {
        guard let reply = await router.reply(to: Data(line.utf8), from: connection) else { return nil }
        return try? IncomingMessage.parse(reply)
    }

    private func error(_ line: String) async -> RPCError? {
        if case .failure(_, let error)? = await send(line) { return error }
        return nil
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
        #expect(await send(#"{"jsonrpc":"2.0","method":"todo.add","params":{"title":"quiet"}}"#) == nil)
        #expect(try store.load().items.map(\.title) == ["quiet"])
    }

    @Test func aSubscriberGetsTheEventBeforeTheReply() async throws {
        guard case .response(_, let subscribed)? = await send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe"}"#)
        else { Issue.record("no result"); return }
        let start = try subscribed.result(SubscribeListView.Result.self)
        var clientState = try #require(start.state?.fullState)
        #expect(clientState.rows.isEmpty)

        // The router returns the reply; the event was already in the outbox.
        _ = await send(#"{"jsonrpc":"2.0","id":2,"method":"todo.add","params":{"title":"milk"}}"#)
        let events = pushed.lines
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
        #expect(pushed.lines.count == 1)
        #expect(try store.load().history.undoSteps.count == 1)
        _ = await send(#"{"jsonrpc":"2.0","id":3,"method":"todo.undo"}"#)
        #expect(try store.load().items.isEmpty)
    }

    @Test func resumingReplaysWhatWasMissedFromTheHistory() async throws {
        guard case .response(_, let subscribed)? = await send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe"}"#)
        else { Issue.record("no result"); return }
        let start = try subscribed.result(SubscribeListView.Result.self)
        var clientState = try #require(start.state?.fullState)
        await router.host.disconnect(connection: 1)
        for title in ["a", "b", "c"] {
            _ = await send(#"{"jsonrpc":"2.0","id":2,"method":"todo.add","params":{"title":"\#(title)"}}"#)
        }
        let resume = #"{"jsonrpc":"2.0","id":3,"method":"view.subscribe","params":{"since":{"epoch":"\#(start.epoch)","revision":0}}}"#
        guard case .response(_, let resumed)? = await send(resume) else { Issue.record("no result"); return }
        let result = try resumed.result(SubscribeListView.Result.self)
        #expect(result.mode == .replay)
        #expect(result.replay.map(\.revision) == [1, 2, 3])
        for body in result.replay { try body.apply(to: &clientState) }
        let fresh = try await router.host.state(of: ViewSelection()).state
        #expect(clientState == fresh)
    }

    @Test func aCommandThatChangesNothingPushesNothing() async throws {
        _ = await send(#"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"milk"}}"#)
        _ = await send(#"{"jsonrpc":"2.0","id":2,"method":"view.subscribe"}"#)
        _ = await send(#"{"jsonrpc":"2.0","id":3,"method":"todo.setDone","params":{"id":1,"done":false}}"#)
        #expect(pushed.lines.isEmpty)
    }

    @Test func aDisconnectedClientGetsNoMoreEvents() async throws {
        _ = await send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe"}"#)
        await router.host.disconnect(connection: connection.id)
        _ = await send(#"{"jsonrpc":"2.0","id":2,"method":"todo.add","params":{"title":"milk"}}"#)
        #expect(pushed.lines.isEmpty)
        #expect(await router.host.subscriptionCount == 0)
    }
}

/// What the host pushed to the test's connection, in order.
final class PushedLines: ConnectionSink {
    private let storage = Mutex<[String]>([])
    let connectionID = 1

    func send(_ line: Data) { append(line) }
    func sendEvent(_ line: Data) { append(line) }
    func resumeEvents(with lines: [Data]) { lines.forEach(append) }

    func append(_ line: Data) {
        storage.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
    }

    var lines: [String] { storage.withLock { $0 } }
}
