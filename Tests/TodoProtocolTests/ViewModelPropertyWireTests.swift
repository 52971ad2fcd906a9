import CanonicalJSON
import Foundation
import Testing
import TodoProtocol
import TodoViewState

/// The list view model's properties on the wire, all derived from their
/// declarations: values, subsets applied by clients, the schema, and the
/// table in PROTOCOL.md.
@Suite struct ViewModelPropertyWireTests {
    static let empty = TodoListProperties(
        filter: .all, sort: .created, itemsLeft: "0 items left", activeCount: 0, completedCount: 0, totalCount: 0,
        overdueText: "0 overdue", dueTodayText: "nothing due today", allDone: false, canClearCompleted: false, emptyText: "Nothing to do. Add an item with: todoctl add TITLE",
        canUndo: false, undoText: nil, canRedo: false, redoText: nil)
    static let busy = TodoListProperties(
        filter: .active, sort: .due, itemsLeft: "2 items left", activeCount: 2, completedCount: 1, totalCount: 3,
        allDone: false, canClearCompleted: true, emptyText: nil, canUndo: true, undoText: "Undo add “b”", canRedo: true,
        redoText: "Redo add “c”", alerts: [ReminderAlert(id: 7, condition: .waiting, message: "“a” has waited for more than a day")],
        alertCount: 3)

    private static func sortedJSON(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The bytes of a snapshot are those the transcripts hold (this one is
    /// the state in PROTOCOL.md's example).
    @Test func aSnapshotIsWrittenAsBefore() throws {
        #expect(
            try Self.sortedJSON(Self.empty)
                == #"{"activeCount":0,"alertCount":0,"alerts":[],"allDone":false,"canClearCompleted":false,"canRedo":false,"canUndo":false,"completedCount":0,"desktopReminders":[],"dueTodayCount":0,"dueTodayText":"nothing due today","emptyText":"Nothing to do. Add an item with: todoctl add TITLE","filter":"all","grouping":null,"itemsLeft":"0 items left","overdueCount":0,"overdueText":"0 overdue","projectCounts":[],"query":"","redoText":null,"sort":"created","tagCounts":[],"totalCount":0,"undoText":null}"#
        )
    }

    /// The values an event carries are exactly what a snapshot writes for
    /// those properties.
    @Test(arguments: [empty, busy])
    func wireValuesAreWhatTheSnapshotWrites(properties: TodoListProperties) throws {
        let snapshot = try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(properties))
        #expect(properties.values(forKeys: TodoListProperties.names) == snapshot)
        #expect(
            properties.values(forKeys: ["undoText", "alerts", "noSuchProperty"])
                == ["undoText": snapshot["undoText"]!, "alerts": snapshot["alerts"]!])
    }

    @Test func anAlertIsItsIdConditionAndMessage() {
        #expect(
            Self.busy.values(forKeys: ["alerts"])
                == ["alerts": [["id": 7, "condition": "waiting", "message": "“a” has waited for more than a day"]]])
    }

    /// A client applies the changed subset and gets the new value, whichever
    /// properties changed; names it does not know are ignored.
    @Test func aClientAppliesAChangedSubset() throws {
        let changed = Self.busy.changedKeys(since: Self.empty)
        var state = Self.empty
        try state.apply(Self.busy.values(forKeys: changed))
        #expect(state == Self.busy)
        try state.apply(Self.empty.values(forKeys: ["emptyText", "undoText"]).merging(["fromTheFuture": 1]) { $1 })
        var expected = Self.busy
        expected.emptyText = Self.empty.emptyText
        expected.undoText = nil
        #expect(state == expected)
    }

    @Test func aValueOfTheWrongTypeIsRefusedNamingTheProperty() {
        var state = Self.empty
        #expect {
            try state.apply(["activeCount": "two"])
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["activeCount"]
        }
        #expect(state == Self.empty)
    }

    @Test func aWatchedStateIsAFullStateOnlyWithEveryPropertyAndTheRows() {
        let state = TodoListState(properties: Self.busy, rows: [TodoRow(id: 1, title: "a", done: false, createdText: "created today")])
        #expect(WatchedState(state, watching: .all).fullState == state)
        #expect(WatchedState(state, watching: PropertySelection(names: Set(TodoListProperties.names))).fullState == nil)
        #expect(WatchedState(state, watching: PropertySelection(names: ["rows", "itemsLeft"])).fullState == nil)
        #expect(PropertySelection.known == TodoListProperties.names + ["rows"])
    }

    /// The schema of each property is its wire type, described by its doc.
    @Test func theSchemaComesFromTheDeclarations() throws {
        let schema = try #require(Self.definitions["TodoListProperties"])
        guard case .object(let properties) = schema["properties"] else {
            Issue.record("no properties in \(schema)")
            return
        }
        #expect(Set(properties.keys) == Set(TodoListProperties.names))
        #expect(schema["required"] == .array(TodoListProperties.names.sorted().map(JSONValue.string)))
        #expect(
            properties["emptyText"]
                == [
                    "anyOf": [["type": "string"], ["type": "null"]],
                    "description": "What to show instead of rows when this view has none; null when it has rows.",
                ])
        #expect(properties["filter"]?["enum"] == ["all", "active", "completed"])
        #expect(properties["alerts"]?["items"] == ["$ref": "#/$defs/ReminderAlert"])
        for declaration in TodoListProperties.declarations {
            #expect(properties[declaration.name]?["description"] == .string(declaration.doc))
        }
    }

    static var definitions: [String: JSONValue] {
        guard case .object(let definitions) = ProtocolDescription.document["$defs"] else { return [:] }
        return definitions
    }

    // MARK: PROTOCOL.md

    static let protocolDocument = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Protocol/PROTOCOL.md")

    /// How PROTOCOL.md words a wire type.
    static func wording(_ type: WireType) -> String {
        switch type {
        case .string, .enumeration: "string"
        case .integer: "integer"
        case .boolean: "boolean"
        case .named(let name): name
        case .array(let element): "array of \(wording(element))"
        case .nullable(let wrapped): "\(wording(wrapped)) or null"
        }
    }

    /// PROTOCOL.md's table of TodoListProperties is written for people (its
    /// rows group some properties), so it is checked rather than generated:
    /// it lists every declared property and no other, each with its type,
    /// and an enumeration's values.
    @Test func protocolMarkdownListsEveryPropertyWithItsType() throws {
        let text = try String(contentsOf: Self.protocolDocument, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "**TodoListProperties**").dropFirst().first)
        let rows = section.split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        var documented: [String: (type: String, meaning: String)] = [:]
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            try #require(cells.count == 3, "a row of three cells: \(row)")
            for name in cells[0].split(separator: ",") {
                documented[name.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))] =
                    (cells[1], cells[2])
            }
        }
        #expect(Set(documented.keys) == Set(TodoListProperties.names))
        for declaration in TodoListProperties.declarations {
            guard let row = documented[declaration.name] else { continue }
            #expect(row.type == Self.wording(declaration.wireType), "the type of \(declaration.name) in PROTOCOL.md")
            if case .enumeration(let values) = declaration.wireType {
                for value in values {
                    #expect(row.meaning.contains("`\(value)`"), "PROTOCOL.md does not name \(declaration.name)'s value \(value)")
                }
            }
        }
    }
}

extension JSONValue {
    /// An object's member, for reading schemas in tests.
    fileprivate subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }
}
