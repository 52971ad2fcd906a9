import CanonicalJSON
import Foundation
import Testing
import TodoProtocol
import TodoViewState

/// `JSONValue(encoding:)` and `JSONValueDecoder` agree with Foundation's
/// JSON coders, which write and read the lines.
@Suite struct JSONValueCodingTests {
    private static func throughText<T: Codable>(_ value: T) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }

    private static func check<T: Codable & Equatable>(_ value: T) throws {
        let direct = try JSONValue(encoding: value)
        #expect(direct == (try throughText(value)))
        #expect(try JSONValueDecoder.decode(T.self, from: direct) == value)
    }

    static let properties = TodoListProperties(
        filter: .active, sort: .due, itemsLeft: "2 items left", activeCount: 2, completedCount: 1, totalCount: 3,
        allDone: false, canClearCompleted: true, emptyText: nil, canUndo: true, undoText: "Undo add “b”", canRedo: false,
        redoText: nil, alerts: [ReminderAlert(id: 7, condition: .overdue, message: "“a” is overdue")], alertCount: 3)

    @Test func wireTypesEncodeAndDecodeAsFoundationDoes() throws {
        let row = TodoRow(id: 3, title: "a “b”\n", done: true, createdText: "created today", dueText: "due tomorrow", overdue: true)
        try Self.check(TodoListState(properties: Self.properties, rows: [row]))
        try Self.check(TodoListState(properties: Self.properties, rows: []))
        try Self.check(
            ChangeBody(
                revision: 9, properties: ["undoText": .null, "activeCount": 2], rows: [RowEdit(.move(from: 1, to: 0, row: row))],
                cause: Cause(connection: 1, request: .string("x"))))
        try Self.check(Transaction.Result(results: [.init(id: nil, item: nil, done: nil), .init(id: 4, item: row, done: "add")], done: nil))
        try Self.check(["a": [1, .double(2.5), true, nil, "x"], "b": [:]] as JSONValue)
        try Self.check([Int64.max, Int64.min])
        try Self.check([ListFilter.active: 1])
    }

    @Test func numbersThatDoNotFitAreRefused() {
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Int8.self, from: 300) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Int.self, from: .double(1.5)) }
        #expect(throws: (any Error).self) { try JSONValue(encoding: Double.nan) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(TodoListProperties.self, from: ["filter": "all"]) }
    }
}
