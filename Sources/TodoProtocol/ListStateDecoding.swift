import FoundationEssentials
import TodoViewModels

/// Reading a list view's state out of a reply quickly. A view of 100,000
/// items is a line of some 35 MB, and `JSONDecoder` took most of a second
/// of `todoctl ls` to decode its rows through Codable. The rows are read
/// here by `JSONBytes`; the rest of the state (counters, wording) is small
/// and goes through `JSONDecoder` as before. Any shape this does not expect
/// returns nil, and the caller decodes the whole line the usual way.
enum ListStateDecoding {
    static func listState(fromReply line: Data) -> TodoListState? {
        line.withUnsafeBytes { raw -> TodoListState? in
            let bytes = raw.bindMemory(to: UInt8.self)
            // One pass: to the result, through its members, the rows read
            // where they stand and the rest skipped.
            var reader = JSONBytes(bytes)
            guard let resultStart = reader.valueStart(ofMember: "result"), reader.expect(UInt8(ascii: "{")) else { return nil }
            var rows: [TodoRow]?
            var rowsRange = 0..<0
            while true {
                guard let key = reader.readString(), reader.expect(UInt8(ascii: ":")) else { return nil }
                reader.skipWhitespace()
                let start = reader.index
                if key == "rows" {
                    rows = reader.readArray(readRow)
                    guard rows != nil else { return nil }
                    rowsRange = start..<reader.index
                } else {
                    guard reader.skipValue() else { return nil }
                }
                guard let separator = reader.nextSeparator() else { return nil }
                if separator == UInt8(ascii: "}") { break }
                guard separator == UInt8(ascii: ",") else { return nil }
            }
            guard let rows else { return nil }
            var rest = Array(bytes[resultStart..<rowsRange.lowerBound])
            rest += Array("[]".utf8)
            rest += bytes[rowsRange.upperBound..<reader.index]
            guard var state = try? JSONDecoder().decode(TodoListState.self, from: Data(rest)), state.rows.isEmpty else { return nil }
            state.rows = rows
            return state
        }
    }

    /// One row: every key `TodoRow` encodes must be there once; others are skipped.
    private static func readRow(_ reader: inout JSONBytes) -> TodoRow? {
        guard reader.expect(UInt8(ascii: "{")) else { return nil }
        var row = TodoRow(id: 0, title: "", done: false, createdText: "")
        var seen = 0
        while true {
            guard let key = reader.readString(), reader.expect(UInt8(ascii: ":")) else { return nil }
            switch key {
            case "completed": guard let value = reader.readOptionalString() else { return nil }; row.completed = value
            case "created": guard let value = reader.readString() else { return nil }; row.created = value
            case "createdText": guard let value = reader.readString() else { return nil }; row.createdText = value
            case "done": guard let value = reader.readBool() else { return nil }; row.done = value
            case "due": guard let value = reader.readOptionalString() else { return nil }; row.due = value
            case "dueText": guard let value = reader.readOptionalString() else { return nil }; row.dueText = value
            case "fieldsText": guard let value = reader.readString() else { return nil }; row.fieldsText = value
            case "group": guard let value = reader.readOptionalString() else { return nil }; row.group = value
            case "id": guard let value = reader.readInteger() else { return nil }; row.id = value
            case "modified": guard let value = reader.readString() else { return nil }; row.modified = value
            case "noteCount": guard let value = reader.readInteger(), let count = Int(exactly: value) else { return nil }; row.noteCount = count
            case "overdue": guard let value = reader.readBool() else { return nil }; row.overdue = value
            case "priority": guard let value = reader.readOptionalString() else { return nil }; row.priority = value
            case "project": guard let value = reader.readOptionalString() else { return nil }; row.project = value
            case "recurrence": guard let value = reader.readOptionalString() else { return nil }; row.recurrence = value
            case "tags": guard let value = reader.readArray({ $0.readString() }) else { return nil }; row.tags = value
            case "title": guard let value = reader.readString() else { return nil }; row.title = value
            case "wait": guard let value = reader.readOptionalString() else { return nil }; row.wait = value
            case "waitText": guard let value = reader.readOptionalString() else { return nil }; row.waitText = value
            // Present only on some rows: not counted.
            case "blocked", "blocking", "context":
                guard let value = reader.readBool() else { return nil }
                if key == "blocked" { row.blocked = value } else if key == "blocking" { row.blocking = value } else { row.context = value }
                seen -= 1
            case "depth":
                guard let value = reader.readInteger(), let depth = Int(exactly: value) else { return nil }
                row.depth = depth
                seen -= 1
            case "values":
                guard let value = reader.readObject(readFieldValue) else { return nil }
                row.values = value
                seen -= 1
            case "valueTexts":
                guard let value = reader.readObject({ $0.readString() }) else { return nil }
                row.valueTexts = value
                seen -= 1
            default:
                guard reader.skipValue() else { return nil }
                seen -= 1  // not one of the row's keys
            }
            seen += 1
            switch reader.nextSeparator() {
            case UInt8(ascii: "}"): return seen == rowKeys ? row : nil
            case UInt8(ascii: ","): continue
            default: return nil
            }
        }
    }

    /// A declared field's raw value: text, a number, or ids.
    private static func readFieldValue(_ reader: inout JSONBytes) -> RowFieldValue? {
        reader.skipWhitespace()
        if reader.current == UInt8(ascii: "\"") { return reader.readString().map(RowFieldValue.text) }
        if reader.current == UInt8(ascii: "[") { return reader.readArray { $0.readInteger() }.map(RowFieldValue.ids) }
        return reader.readNumber().map(RowFieldValue.number)
    }

    /// How many keys a row always has (each must be read once for the row to stand).
    private static let rowKeys = 19
}
