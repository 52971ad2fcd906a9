import CanonicalJSON
import Foundation
import Testing
import TodoViewState

@testable import TodoProtocol

/// The types that write their own JSON (`JSONWritable`: rows, item replies,
/// event bodies) must write exactly the bytes `CanonicalJSONEncoder` writes
/// for the same value through `Encodable`: transcripts compare bytes, and a
/// client may hash a line. Each test encodes the same values both ways.
@Suite struct HandWrittenJSONTests {
    private func generic(_ value: some Encodable) throws -> String {
        String(decoding: try CanonicalJSONEncoder().encode(value), as: UTF8.self)
    }

    private func handWritten(_ value: some JSONWritable) throws -> String {
        var bytes: [UInt8] = []
        try value.writeJSON(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func keys(_ json: String) throws -> Set<String> {
        guard case .object(let members) = try JSONValue(parsing: Array(json.utf8)) else {
            Issue.record("not an object: \(json)")
            return []
        }
        return Set(members.keys)
    }

    @Test func randomRowsAreWrittenAsTheEncoderWritesThem() throws {
        var values = RandomWireValues(seed: 2026_11_28)
        for _ in 0..<500 {
            let row = values.row()
            try #require(try handWritten(row) == generic(row), "\(row)")
        }
    }

    /// A key added to `TodoRow.CodingKeys` that the writer leaves out fails
    /// here (and does not compile, as the writer switches over the keys).
    @Test func aFullRowIsWrittenWithEveryCodingKey() throws {
        var values = RandomWireValues(seed: 11)
        for _ in 0..<20 {
            let row = values.row(full: true)
            let written = try handWritten(row)
            #expect(try keys(written) == Set(TodoRow.CodingKeys.allCases.map(\.stringValue)))
            #expect(try keys(written) == keys(generic(row)))
            #expect(written == (try generic(row)))
        }
    }

    @Test func aBareRowLeavesOutWhatTheEncoderLeavesOut() throws {
        let row = TodoRow(id: 1, title: "a", done: false, createdText: "created today")
        #expect(try handWritten(row) == generic(row))
        #expect(try handWritten(row).contains(#""completed":null"#))
        #expect(try !handWritten(row).contains("blocked"))
    }

    @Test func itemRepliesAreTheLinesTheEncoderMakes() throws {
        var values = RandomWireValues(seed: 5)
        for _ in 0..<200 {
            let result = ItemResult(item: values.row())
            let id: RequestID = values.bool() ? .number(values.int64()) : .string(values.text())
            let line = String(decoding: MessageEncoding.response(id: id, result: result), as: UTF8.self)
            let expected = #"{"id":"# + id.json + #","jsonrpc":"2.0","result":"# + (try generic(result)) + "}\n"
            try #require(line == expected)
            #expect(try handWritten(result) == generic(result))
        }
    }

    @Test func randomEventBodiesAreWrittenAsTheEncoderWritesThem() throws {
        var values = RandomWireValues(seed: 77)
        for _ in 0..<300 {
            let body = values.changeBody()
            let expected = try generic(body)
            try #require(try handWritten(body) == expected, "\(body)")
            try #require(String(decoding: MessageEncoding.json(body), as: UTF8.self) == expected)
        }
    }

    @Test func randomJSONValuesAreWrittenAsTheEncoderWritesThem() throws {
        var values = RandomWireValues(seed: 3)
        for _ in 0..<300 {
            let value = values.jsonValue()
            try #require(try handWritten(value) == generic(value), "\(value)")
        }
    }

    /// Every key of an event, a row edit and a cause, each present once.
    @Test func fullEventsAreWrittenWithEveryKey() throws {
        var values = RandomWireValues(seed: 19)
        let row = values.row(full: true)
        let cause = Cause(connection: 3, request: .string("r/1"), instance: "b", origin: "sync")
        let body = ChangeBody(
            revision: 9, properties: ["itemsLeft": "1 item left", "canUndo": true, "emptyText": nil],
            rows: [RowEdit(.move(from: 2, to: 0, row: row)), RowEdit(.reset(rows: [row, row]))], cause: cause, reset: true)
        #expect(try handWritten(body) == generic(body))
        #expect(try keys(handWritten(body)) == ["cause", "properties", "reset", "revision", "rows"])
        #expect(try keys(handWritten(cause)) == ["connection", "request", "instance", "origin"])
        #expect(try keys(handWritten(cause)) == keys(generic(cause)))
        let move = RowEdit(.move(from: 2, to: 0, row: row))
        #expect(try keys(handWritten(move)) == ["from", "index", "op", "row"])
        #expect(try keys(handWritten(move)) == keys(generic(move)))
        let reset = RowEdit(.reset(rows: [row]))
        #expect(try keys(handWritten(reset)) == keys(generic(reset)))
    }

    @Test func aNumberJSONCannotHoldIsRefusedByBoth() {
        for number in [Double.nan, .infinity, -.infinity] {
            let row = TodoRow(id: 1, title: "a", done: false, createdText: "", values: ["estimate": .number(number)])
            #expect(throws: EncodingError.self) { try handWritten(row) }
            #expect(throws: EncodingError.self) { try generic(row) }
            #expect(throws: EncodingError.self) { try handWritten(JSONValue.double(number)) }
        }
    }
}
