import Foundation
import Testing
import TodoModel
import TodoProtocol
import TodoViewState

@Suite struct MessageEncodingTests {
    private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func aResponseIsOneCompactLineWithSortedKeys() {
        let line = text(MessageEncoding.response(id: .number(3), result: RemoveTodo.Result(id: 9)))
        #expect(line == #"{"id":3,"jsonrpc":"2.0","result":{"id":9}}"# + "\n")
    }

    @Test func anErrorWithoutAnIdSaysNull() {
        let line = text(MessageEncoding.error(id: nil, .parseError("x")))
        #expect(line.hasPrefix(#"{"error":{"code":-32700,"data":{"name":"protocol.parseError"}"#))
        #expect(line.contains(#""id":null"#))
        #expect(line.hasSuffix("\n"))
        #expect(line.dropLast().contains("\n") == false)
    }

    /// The spliced reply is the bytes `JSONEncoder` wrote before the id was
    /// spliced: the same key order, and string ids escaped the same way.
    @Test(arguments: ["x", "a\"b\\c/d", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}\u{7F}", "é € 𝄞 \u{2028}\u{FFFF}", ""])
    func splicedRepliesReadLikeEncodedOnes(_ string: String) throws {
        struct Reply<R: Encodable>: Encodable {
            var jsonrpc = "2.0"
            var id: String
            var result: R?
            var error: RPCError?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let result = RemoveTodo.Result(id: 9)
        let expected = try encoder.encode(Reply(id: string, result: result)) + Data("\n".utf8)
        #expect(text(MessageEncoding.response(id: .string(string), result: result)) == text(expected))
        let error = RPCError.methodNotFound("a/b")
        let expectedError = try encoder.encode(Reply<RemoveTodo.Result>(id: string, result: nil, error: error)) + Data("\n".utf8)
        #expect(text(MessageEncoding.error(id: .string(string), error)) == text(expectedError))
    }

    @Test func aBatchOfRepliesIsOneLineHoldingTheArray() {
        let replies = [
            MessageEncoding.response(id: .number(1), result: RemoveTodo.Result(id: 1)),
            MessageEncoding.error(id: nil, .invalidRequest("x")),
        ]
        let line = text(MessageEncoding.batch(replies))
        #expect(line == "[" + text(replies[0]).dropLast() + "," + text(replies[1]).dropLast() + "]\n")
        #expect(MessageEncoding.batch([]).isEmpty)
    }

    @Test func notificationsHaveNoId() {
        let line = text(MessageEncoding.notification(ServerShutdown.self, params: .init(reason: "bye")))
        #expect(line == #"{"jsonrpc":"2.0","method":"server.shutdown","params":{"reason":"bye"}}"# + "\n")
    }

    static let properties = TodoListProperties(
        filter: .all, sort: .created, itemsLeft: "1 item left", activeCount: 1, completedCount: 0, totalCount: 1,
        allDone: false, canClearCompleted: false, emptyText: nil, canUndo: true, undoText: "Undo add “a”",
        canRedo: false, redoText: nil)
    static let row = TodoRow(id: 1, title: "a", done: false, createdText: "created today")

    @Test func theClientReadsWhatTheServerWrites() throws {
        let state = TodoListState(properties: Self.properties, rows: [Self.row])
        let reply = try IncomingMessage.parse(MessageEncoding.response(id: .string("x"), result: state))
        guard case .response(let id, let payload) = reply else {
            Issue.record("not read as a response: \(reply)")
            return
        }
        #expect(id == .string("x"))
        #expect(try payload.result(TodoListState.self) == state)

        guard case .failure(let failedID, let error) = try IncomingMessage.parse(
            MessageEncoding.error(id: .number(4), RPCError(TodoError.notFound(TodoID(4)))))
        else {
            Issue.record("not read as a failure")
            return
        }
        #expect(failedID == .number(4))
        #expect(error.name == "todo.notFound")
    }

    @Test func anEventCarriesOnlyChangedPropertiesAndAppliesToAState() throws {
        var before = TodoListState(properties: Self.properties, rows: [Self.row])
        var afterProperties = Self.properties
        afterProperties.undoText = nil
        afterProperties.canUndo = false
        let change = TodoListChange(
            properties: afterProperties, changedKeys: afterProperties.changedKeys(since: Self.properties),
            rowOperations: [.update(index: 0, row: TodoRow(id: 1, title: "b", done: true, createdText: "created today"))])
        let body = ChangeBody(revision: 5, change: change, cause: Cause(connection: 3, request: .string("r")))
        #expect(body.properties == ["canUndo": .bool(false), "undoText": .null])

        // The subscription id is spliced into a body encoded once for all subscribers.
        let line = ListViewChanged.line(subscription: 2, encodedBody: try JSONEncoder().encode(body))
        guard case .notification(let method, let payload) = try IncomingMessage.parse(line) else {
            Issue.record("not read as a notification")
            return
        }
        #expect(method == "view.changed")
        let received = try payload.params(ListViewChanged.Params.self)
        #expect(received.subscription == 2)
        #expect(received.body == body)
        try received.body.apply(to: &before)
        #expect(before == TodoListState(properties: afterProperties, rows: [TodoRow(id: 1, title: "b", done: true, createdText: "created today")]))
    }

    @Test func everyRowEditSurvivesTheWireAndAppliesLikeTheViewModels() throws {
        let rows = (1...4).map { TodoRow(id: Int64($0), title: "\($0)", done: false, createdText: "created today") }
        let moved = TodoRow(id: 1, title: "z", done: false, createdText: "created today")
        let operations: [RowOperation] = [
            .move(from: 0, to: 3, row: moved), .remove(index: 1), .insert(index: 0, row: rows[1]),
            .update(index: 2, row: rows[3]),
        ]
        var expected = TodoListState(properties: Self.properties, rows: rows)
        let change = TodoListChange(properties: Self.properties, changedKeys: [], rowOperations: operations)
        var received = expected
        expected.apply(change)
        let line = MessageEncoding.notification(
            ListViewChanged.self, params: .init(subscription: 1, body: ChangeBody(revision: 1, change: change, cause: nil)))
        guard case .notification(_, let payload) = try IncomingMessage.parse(line) else {
            Issue.record("not a notification")
            return
        }
        #expect(String(decoding: line, as: UTF8.self).contains(#"{"from":0,"index":3,"op":"move","row":"#))
        try payload.params(ListViewChanged.Params.self).body.apply(to: &received)
        #expect(received == expected)
    }

    @Test(arguments: [
        ("2026-12-24", DueDate.day(CalendarDay(year: 2026, month: 12, day: 24))),
        ("2026-12-24T18:00Z", DueDate.moment(Date(timeIntervalSince1970: 1_798_135_200))),
        ("2026-12-24T19:00+01:00", DueDate.moment(Date(timeIntervalSince1970: 1_798_135_200))),
        ("2026-12-24T18:00:00Z", DueDate.moment(Date(timeIntervalSince1970: 1_798_135_200))),
    ])
    func dueDatesAreRead(text: String, expected: DueDate) {
        #expect(DueDateText.parse(text, timeZone: TimeZone(identifier: "UTC")!) == expected)
    }

    @Test(arguments: ["tomorrow", "2026-02-30", "2026-12-24T25:00", "24.12.2026", "2026-12-24T18"])
    func nonsenseDueDatesAreRefused(text: String) {
        #expect(DueDateText.parse(text, timeZone: TimeZone(identifier: "UTC")!) == nil)
    }

    @Test func aRefusalAboutOneWordKeepsItsNameAndGivesThePosition() {
        let link = TodoError.invalidLink(field: "depends", problem: .missing(TodoID(9)))
        let error = RPCError(TodoError.inWord(ShorthandWord("depends:9", at: 4), link))
        #expect(error.name == "todo.invalidLink")
        #expect(error.data?.position == 4)
        #expect(error.message.hasPrefix("At 4 (depends:9): depends: there is no item 9"), "\(error.message)")
        // In a transaction too, and said once that nothing changed.
        let inTransaction = error.inTransaction(at: 2)
        #expect(inTransaction.data?.index == 2)
        #expect(inTransaction.data?.position == 4)
        #expect(inTransaction.message.lowercased().components(separatedBy: "nothing was changed").count == 2, "\(inTransaction.message)")
    }

    @Test func refusedCommandsMapToStableNames() {
        #expect(RPCError(TodoError.blankTitle).code == -32602)
        #expect(RPCError(TodoError.blankTitle).name == "todo.invalidTitle")
        #expect(RPCError(TodoError.titleTooLong(length: 9, maximum: 8)).name == "todo.invalidTitle")
        #expect(RPCError(TodoError.notFound(TodoID(1))).code == -32001)
    }
}

@Suite struct SocketLocationTests {
    @Test func theRuntimeDirectoryDecides() {
        #expect(SocketLocation.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]) == "/run/user/1000/todod/todod.sock")
    }

    @Test func theEnvironmentVariableOverrides() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/1000", "TODOD_SOCKET": "/tmp/x.sock"]
        #expect(SocketLocation.defaultPath(environment: environment) == "/tmp/x.sock")
    }

    @Test func withoutARuntimeDirectoryTheUsersRunDirectoryIsUsed() {
        #expect(SocketLocation.defaultPath(environment: [:]).hasPrefix("/run/user/"))
        #expect(SocketLocation.defaultPath(environment: [:]).hasSuffix("/todod/todod.sock"))
    }
}
