import CanonicalJSON
import TestSupport
import TodoViewState

@testable import TodoProtocol

/// Random rows, row edits and event bodies for comparing the hand-written
/// JSON writers with `CanonicalJSONEncoder`: texts with everything JSON
/// escapes or sorts unusually (control characters, quotes, backslashes,
/// slashes, non-ASCII, emoji, combining marks), optionals both present and
/// absent, empty and full arrays and dictionaries, extreme numbers.
struct RandomWireValues {
    var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// Pieces a text is made of, each of them something the writer could get wrong.
    private static let pieces: [String] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "//", "\u{0}", "\u{1}", "\u{8}", "\t", "\n", "\u{B}", "\u{C}", "\r", "\u{1F}",
        "\u{7F}", "\u{85}", "\u{A0}", "é", "e\u{301}", "ß", "€", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFF}", "😀", "👩‍👩‍👧",
        "𝄞", "中文", "\\u0000", "null", "{\"x\":1}", "🇳🇴", "ﬁ",
    ]

    mutating func bool() -> Bool { random.next() & 1 == 0 }

    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    mutating func text(maximumPieces: Int = 8) -> String {
        let count = Int.random(in: 0...maximumPieces, using: &random)
        var text = ""
        for _ in 0..<count {
            if chance(20) {
                // Any scalar at all, surrogates excepted.
                let value = UInt32.random(in: 0...0x10FFFF, using: &random)
                text.unicodeScalars.append(Unicode.Scalar(value) ?? "?")
            } else {
                text += Self.pieces.randomElement(using: &random)!
            }
        }
        return text
    }

    mutating func optionalText() -> String? { bool() ? text() : nil }

    mutating func int64() -> Int64 {
        switch random.next() % 5 {
        case 0: [Int64.min, Int64.max, 0, -1, 1].randomElement(using: &random)!
        case 1: Int64(bitPattern: random.next())
        default: Int64.random(in: -1_000...100_000, using: &random)
        }
    }

    mutating func int() -> Int { Int(int64()) }

    /// Finite doubles only: the encoder refuses the others, and so does the writer
    /// (`aNumberJSONCannotHoldIsRefusedByBoth`).
    mutating func double() -> Double {
        switch random.next() % 5 {
        case 0:
            return [0, -0.0, 0.5, 30, 1e20, 1e-7, 1e16, 1.0 / 3, -123.456, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
                .randomElement(using: &random)!
        case 1:
            return Double(Int64.random(in: -1_000_000...1_000_000, using: &random))
        default:
            while true {
                let value = Double(bitPattern: random.next())
                if value.isFinite { return value }
            }
        }
    }

    mutating func fieldValue() -> RowFieldValue {
        switch random.next() % 3 {
        case 0: .text(text())
        case 1: .number(double())
        default: .ids((0..<Int.random(in: 0...4, using: &random)).map { _ in int64() })
        }
    }

    mutating func dictionary<Value>(_ value: (inout RandomWireValues) -> Value) -> [String: Value] {
        var members: [String: Value] = [:]
        for _ in 0..<Int.random(in: 0...5, using: &random) { members[text(maximumPieces: 3)] = value(&self) }
        return members
    }

    /// Every property present when `full`, else each one present or not at random.
    mutating func row(full: Bool = false) -> TodoRow {
        func maybe<Value>(_ make: (inout RandomWireValues) -> Value) -> Value? {
            full || bool() ? make(&self) : nil
        }
        return TodoRow(
            id: int64(), title: text(), done: bool(), createdText: text(), dueText: maybe { $0.text() },
            overdue: bool(), created: text(), modified: text(), completed: maybe { $0.text() }, due: maybe { $0.text() },
            wait: maybe { $0.text() }, waitText: maybe { $0.text() },
            tags: (0..<Int.random(in: full ? 1...4 : 0...4, using: &random)).map { _ in text() },
            project: maybe { $0.text() }, priority: maybe { $0.text() }, recurrence: maybe { $0.text() },
            noteCount: int(), fieldsText: text(), group: maybe { $0.text() },
            values: maybe { $0.dictionary { $0.fieldValue() } }, valueTexts: maybe { $0.dictionary { $0.text() } },
            blocked: maybe { $0.bool() }, blocking: maybe { $0.bool() }, depth: maybe { $0.int() },
            context: maybe { $0.bool() })
    }

    mutating func jsonValue(depth: Int = 0) -> JSONValue {
        switch random.next() % (depth < 3 ? 7 : 5) {
        case 0: .null
        case 1: .bool(bool())
        case 2: .integer(int64())
        case 3: .double(double())
        case 4: .string(text())
        case 5: .array((0..<Int.random(in: 0...3, using: &random)).map { _ in jsonValue(depth: depth + 1) })
        default: .object(dictionary { $0.jsonValue(depth: depth + 1) })
        }
    }

    mutating func rowEdit() -> RowEdit {
        switch random.next() % 5 {
        case 0: RowEdit(.insert(index: int(), row: row()))
        case 1: RowEdit(.remove(index: int()))
        case 2: RowEdit(.update(index: int(), row: row()))
        case 3: RowEdit(.move(from: int(), to: int(), row: row()))
        default: RowEdit(.reset(rows: (0..<Int.random(in: 0...3, using: &random)).map { _ in row() }))
        }
    }

    mutating func requestID() -> RequestID {
        switch random.next() % 4 {
        case 0: .number(int64())
        case 1: .string(text())
        case 2: .null
        default:
            RequestID(
                value: .otherNumber(["1.0", "1e3", "-1.5e-7", "9223372036854775808", "1e400", "0.1"].randomElement(using: &random)!),
                json: "")
        }
    }

    mutating func cause() -> Cause {
        Cause(
            connection: int(), request: bool() ? requestID() : nil, instance: bool() ? text() : nil,
            origin: bool() ? text() : nil)
    }

    mutating func changeBody() -> ChangeBody {
        ChangeBody(
            revision: int(), properties: dictionary { $0.jsonValue() },
            rows: (0..<Int.random(in: 0...3, using: &random)).map { _ in rowEdit() }, cause: bool() ? cause() : nil,
            reset: bool())
    }
}
