import CanonicalJSON
import FoundationEssentials
import TestSupport
import Testing

@testable import TodoProtocol
import TodoViewState

/// The fast reading of a list view's rows must give what `JSONDecoder`
/// gives, for any row the daemon can write; and anything else must fall
/// back to `JSONDecoder` rather than give something different.
@Suite struct ListStateDecodingTests {
    /// Text with everything a string can hold on the wire: quotes,
    /// backslashes, control characters, non-ASCII and astral characters.
    private static func text(_ random: inout SeededRandom) -> String {
        let pieces = ["a", "Zz", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "é", "e\u{301}", "€", "𝄞", "😀", "“quoted”", "+tag", ""]
        return (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    private static func row(_ id: Int64, _ random: inout SeededRandom) -> TodoRow {
        func maybe(_ random: inout SeededRandom) -> String? { Bool.random(using: &random) ? text(&random) : nil }
        return TodoRow(
            id: id, title: text(&random), done: .random(using: &random), createdText: text(&random), dueText: maybe(&random),
            overdue: .random(using: &random), created: text(&random), modified: text(&random), completed: maybe(&random),
            due: maybe(&random), wait: maybe(&random), waitText: maybe(&random),
            tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) }, project: maybe(&random),
            priority: maybe(&random), recurrence: maybe(&random), noteCount: .random(in: 0...100, using: &random),
            fieldsText: text(&random), group: maybe(&random),
            values: Bool.random(using: &random)
                ? ["scheduled": .text(text(&random)), "estimate": .number(2.5), "depends": .ids([3, 5])] : nil,
            valueTexts: Bool.random(using: &random) ? ["scheduled": text(&random)] : nil,
            blocked: Bool.random(using: &random) ? true : nil, blocking: Bool.random(using: &random) ? true : nil,
            depth: Bool.random(using: &random) ? .random(in: 1...32, using: &random) : nil,
            context: Bool.random(using: &random) ? true : nil)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func readsWhatJSONDecoderReads(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let rows = (1...200).map { Self.row(Int64($0) * 7_919, &random) }
        let state = TodoListState(properties: JSONValueCodingTests.properties, rows: rows)
        let line = MessageEncoding.response(id: .number(1), result: state)
        let fast = try #require(ListStateDecoding.listState(fromReply: line))
        #expect(fast == state)
        guard case .response(_, let payload) = try IncomingMessage.parse(line) else {
            Issue.record("not a response")
            return
        }
        #expect(try payload.result(TodoListState.self) == state)
    }

    @Test func aViewWithoutRowsIsReadToo() throws {
        let state = TodoListState(properties: JSONValueCodingTests.properties, rows: [])
        #expect(ListStateDecoding.listState(fromReply: MessageEncoding.response(id: .number(1), result: state)) == state)
    }

    @Test func aShapeItDoesNotExpectIsLeftToJSONDecoder() throws {
        let row = #"{"completed":null,"created":"c","createdText":"t","done":false,"due":null,"dueText":null,"fieldsText":"","group":null,"id":1,"modified":"m","noteCount":0,"overdue":false,"priority":null,"project":null,"recurrence":null,"tags":[],"title":"x","wait":null,"waitText":null}"#
        let properties = String(decoding: MessageEncoding.json(JSONValueCodingTests.properties), as: UTF8.self)
        func line(_ rows: String) -> Data { Data(#"{"id":1,"jsonrpc":"2.0","result":{"properties":\#(properties),"rows":[\#(rows)]}}"#.utf8) }
        #expect(ListStateDecoding.listState(fromReply: line(row))?.rows.first?.title == "x")
        // An id with a fraction, a missing key, a truncated line: not read here.
        #expect(ListStateDecoding.listState(fromReply: line(row.replacingOccurrences(of: #""id":1"#, with: #""id":1.5"#))) == nil)
        #expect(ListStateDecoding.listState(fromReply: line(row.replacingOccurrences(of: #""title":"x","#, with: ""))) == nil)
        #expect(ListStateDecoding.listState(fromReply: line(row).prefix(200)) == nil)
        // A key twice in place of another (as many keys as a row has, one
        // missing) is not read here either.
        let twice = row.replacingOccurrences(of: #""title":"x","#, with: #""title":"x","title":"y","#)
        #expect(ListStateDecoding.listState(fromReply: line(twice.replacingOccurrences(of: #""id":1,"#, with: ""))) == nil)
        // A key of a later version is skipped.
        #expect(ListStateDecoding.listState(fromReply: line(row.replacingOccurrences(of: #""title":"x","#, with: #""title":"x","later":{"a":[1]},"#)))?.rows.first?.title == "x")
    }
}
