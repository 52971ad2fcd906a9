import FoundationEssentials
import TodoViewState

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

    /// One row: every key a row always has must be there, once; keys it may
    /// have are read when there, and others are skipped. The keys and their
    /// shapes are `TodoRow.keys`.
    private static func readRow(_ reader: inout JSONBytes) -> TodoRow? {
        guard reader.expect(UInt8(ascii: "{")) else { return nil }
        var row = TodoRow(id: 0, title: "", done: false, createdText: "")
        var seen: UInt64 = 0  // a bit per key of `TodoRow.keys`
        var next = 0  // todod writes the keys in the table's order: look there first
        while true {
            guard let key = reader.readString(), reader.expect(UInt8(ascii: ":")) else { return nil }
            if let index = rowKeys[next...].firstIndex(where: { $0.name == key }) ?? keys[key] {
                let bit: UInt64 = 1 << index
                guard seen & bit == 0, read(rowKeys[index].value, into: &row, from: &reader) else { return nil }
                seen |= bit
                next = index + 1 < rowKeys.count ? index + 1 : 0
            } else {
                guard reader.skipValue() else { return nil }  // a key of a later version
            }
            switch reader.nextSeparator() {
            case UInt8(ascii: "}"): return seen & alwaysPresent == alwaysPresent ? row : nil
            case UInt8(ascii: ","): continue
            default: return nil
            }
        }
    }

    /// Reads one key's value as its shape says; false when it is not that shape.
    private static func read(_ value: RowKey.Value, into row: inout TodoRow, from reader: inout JSONBytes) -> Bool {
        switch value {
        case .text(let set):
            guard let text = reader.readString() else { return false }
            set(&row, text)
        case .textOrNull(let set, _):
            guard let text = reader.readOptionalString() else { return false }
            set(&row, text)
        case .flag(let set):
            guard let flag = reader.readBool() else { return false }
            set(&row, flag)
        case .trueOrAbsent(let set):
            guard let flag = reader.readBool() else { return false }
            set(&row, flag)
        case .count(let set):
            guard let number = reader.readInteger(), let count = Int(exactly: number) else { return false }
            set(&row, count)
        case .id(let set):
            guard let id = reader.readInteger() else { return false }
            set(&row, id)
        case .levelOrAbsent(let set):
            guard let number = reader.readInteger(), let level = Int(exactly: number) else { return false }
            set(&row, level)
        case .texts(let set):
            guard let texts = reader.readArray({ $0.readString() }) else { return false }
            set(&row, texts)
        case .fieldValues(let set):
            guard let values = reader.readObject(readFieldValue) else { return false }
            set(&row, values)
        case .fieldTexts(let set):
            guard let texts = reader.readObject({ $0.readString() }) else { return false }
            set(&row, texts)
        }
        return true
    }

    /// A declared field's raw value: text, a number, or ids.
    private static func readFieldValue(_ reader: inout JSONBytes) -> RowFieldValue? {
        reader.skipWhitespace()
        if reader.current == UInt8(ascii: "\"") { return reader.readString().map(RowFieldValue.text) }
        if reader.current == UInt8(ascii: "[") { return reader.readArray { $0.readInteger() }.map(RowFieldValue.ids) }
        return reader.readNumber().map(RowFieldValue.number)
    }

    private static let rowKeys: [RowKey] = {
        precondition(TodoRow.keys.count <= 64, "a row's keys are counted in 64 bits")
        return TodoRow.keys
    }()
    /// Each key's place in `TodoRow.keys` (its bit in `seen`), by name.
    private static let keys = Dictionary(uniqueKeysWithValues: TodoRow.keys.enumerated().map { ($1.name, $0) })
    /// The bits of the keys every row has.
    private static let alwaysPresent: UInt64 = TodoRow.keys.enumerated().reduce(0) { mask, key in
        key.element.isAlwaysPresent ? mask | 1 << key.offset : mask
    }
}
