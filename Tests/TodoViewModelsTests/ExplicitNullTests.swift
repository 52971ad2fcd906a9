import Foundation
import Testing
import TodoViewModels
import TodoViewState

/// `@ExplicitNull` writes a nil optional as null and reads a missing key as nil.
@Suite struct ExplicitNullTests {
    struct Sample: Codable, Equatable {
        @ExplicitNull var written: String?
        var leftOut: String?
    }

    @Test func aNilValueIsWrittenAsNullAndAPlainOptionalIsLeftOut() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let empty = Sample(written: nil, leftOut: nil)
        #expect(String(decoding: try encoder.encode(empty), as: UTF8.self) == #"{"written":null}"#)
        let full = Sample(written: "x", leftOut: "y")
        #expect(String(decoding: try encoder.encode(full), as: UTF8.self) == #"{"leftOut":"y","written":"x"}"#)
    }

    @Test func aMissingKeyOrNullReadsAsNil() throws {
        #expect(try JSONDecoder().decode(Sample.self, from: Data("{}".utf8)) == Sample(written: nil, leftOut: nil))
        #expect(try JSONDecoder().decode(Sample.self, from: Data(#"{"written":null}"#.utf8)) == Sample(written: nil, leftOut: nil))
        #expect(try JSONDecoder().decode(Sample.self, from: Data(#"{"written":"x"}"#.utf8)) == Sample(written: "x", leftOut: nil))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Sample.self, from: Data(#"{"written":1}"#.utf8)) }
    }

    @Test func aRowWithoutADueDateSaysSo() throws {
        let row = TodoRow(id: 1, title: "a", done: false, createdText: "created today", created: "2026-11-23T10:00:00Z", modified: "2026-11-23T10:00:00Z")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try encoder.encode(row), as: UTF8.self)
                == #"{"completed":null,"created":"2026-11-23T10:00:00Z","createdText":"created today","done":false,"due":null,"dueText":null,"fieldsText":"","group":null,"id":1,"modified":"2026-11-23T10:00:00Z","noteCount":0,"overdue":false,"priority":null,"project":null,"recurrence":null,"tags":[],"title":"a","wait":null,"waitText":null}"#)
    }
}
