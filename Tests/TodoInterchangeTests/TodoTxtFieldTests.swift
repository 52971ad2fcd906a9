import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

/// Declared fields in todo.txt: `key:value` add-ons, `t:` (the threshold)
/// for `scheduled`, the field's name for the others.
@Suite struct TodoTxtFieldTests {
    static func item(_ line: String) throws -> ImportedItem {
        try #require(try TodoTxtFormat.read(line, timeZone: .berlin, fields: DeclaredFields.catalog).items.first)
    }

    @Test func eachKindGoesOutAsAnAddOnAndComesBack() throws {
        let line = DeclaredFields.export([DeclaredFields.item], .todotxt)
        #expect(
            line == "2026-11-20 Plan the trip due:2026-12-10 t:2026-12-01 until:2027-01-31 size:M area:north estimate:3.5 "
                + "reviewed:2026-11-15 effort:PT1H30M\n")
        // Days only: `until`'s time is its day here.
        var expected = DeclaredFields.declaredValues
        expected["until"] = .date(.day(DeclaredFields.day(2027, 1, 31)))
        let read = try #require(try DeclaredFields.imported(line, .todotxt, fields: DeclaredFields.withLegacy).first)
        #expect(read.values == expected)
        #expect(read.title == "Plan the trip")
    }

    /// A value that would not read back as itself is not written: read
    /// back, it would be a word of the title, and the line would no longer
    /// match its item on a re-import. That is an orphan (its field is gone),
    /// and a value outside its field's allowed ones.
    @Test func whatWouldNotReadBackIsLeftOutSoTheLineStillMatchesItsItem() throws {
        var item = DeclaredFields.item
        item.values["size"] = .text("XL")
        let line = DeclaredFields.export([item], .todotxt)
        #expect(!line.contains("legacy:") && !line.contains("size:"), "\(line)")
        let read = try Self.item(line)
        #expect(read.title == "Plan the trip")
    }

    @Test func addOnsAreReadByKind() throws {
        let read = try Self.item("call Bob estimate:2 effort:30min size:L reviewed:2026-11-02 t:2026-11-30 client:Acme\n")
        #expect(read.title == "call Bob client:Acme")
        #expect(read.values == [
            "estimate": .number(2), "effort": .duration(1_800), "size": .text("L"), "reviewed": .date(.day(DeclaredFields.day(2026, 11, 2))),
            "scheduled": .date(.day(DeclaredFields.day(2026, 11, 30))),
        ])
        #expect(read.remarks.isEmpty, "\(read.remarks)")
    }

    /// One that does not fit its field stays in the title, said; a `t:`
    /// that is no date refuses the file, as a `due:` does.
    @Test func aValueThatDoesNotFitItsFieldStaysInTheTitle() throws {
        let read = try Self.item("call Bob size:XL estimate:lots until:friday wait:soon\n")
        #expect(read.title == "call Bob size:XL estimate:lots until:friday wait:soon")
        #expect(read.values.isEmpty)
        #expect(read.wait == nil)
        #expect(read.remarks == [
            "size:XL kept in the title: not one of S, M, L", "estimate:lots kept in the title: not a number",
            "until:friday kept in the title: not a date (YYYY-MM-DD)", "wait:soon kept in the title: not a date (write YYYY-MM-DD)",
        ])
        #expect(throws: ImportProblem(location: "line 1", message: "t:friday is not a date (write YYYY-MM-DD)")) {
            try Self.item("call Bob t:friday\n")
        }
    }

    /// A text with a space is no word of a line: it is not written, and a
    /// re-import keeps it rather than clearing it.
    @Test func aTextWithASpaceIsNotWrittenAndIsKeptOnReimport() throws {
        var item = DeclaredFields.item
        item.values = ["area": .text("north east"), "size": .text("S")]
        let line = DeclaredFields.export([item], .todotxt)
        #expect(!line.contains("area:"), "\(line)")
        let list = TodoCollection(items: [item], nextID: TodoID(2))
        let again = try DeclaredFields.plan(line, .todotxt, into: list)
        #expect(again.entries.map(\.action) == [.unchanged], "\(again.entries)")
        let changed = try DeclaredFields.plan(line.replacingOccurrences(of: "size:S", with: "size:M"), .todotxt, into: list)
        var after = list
        after.apply(try #require(changed.step))
        #expect(after[TodoID(1)]?.values == ["area": .text("north east"), "size": .text("M")])
    }

    @Test func aFieldsTextTooLongIsRefused() {
        let long = String(repeating: "a", count: 1_001)
        #expect(throws: ImportProblem(location: "line 1", message: "area is 1001 characters long; a field's text may have at most 1000")) {
            try Self.item("x area:\(long)\n")
        }
    }
}
