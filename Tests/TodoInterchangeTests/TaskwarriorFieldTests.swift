import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

/// Declared fields in Taskwarrior's JSON: each is its attribute (a UDA's is
/// its name), written and read by its kind.
@Suite struct TaskwarriorFieldTests {
    static let utcZone = TimeZone(secondsFromGMT: 0)!

    @Test func eachKindGoesOutAsTaskwarriorWritesItAndComesBack() throws {
        let text = DeclaredFields.export([DeclaredFields.item], .taskwarrior)
        for attribute in [
            #""scheduled":"20261130T230000Z""#, #""until":"20270131T170000Z""#, #""size":"M""#, #""area":"north""#,
            #""estimate":3.5"#, #""reviewed":"20261114T230000Z""#, #""effort":"PT1H30M""#,
        ] {
            #expect(text.contains(attribute), "\(attribute) in \(text)")
        }
        let read = try #require(try DeclaredFields.imported(text, .taskwarrior).first)
        #expect(read.values == DeclaredFields.declaredValues)
    }

    /// A value whose field is gone goes out under its own name, as its kind
    /// is written; read back, it is what Taskwarrior keeps and todod does
    /// not model, and a value again once the field is declared again.
    @Test func anOrphanGoesOutAsItCameAndIsKeptAsForeignUntilDeclaredAgain() throws {
        let text = DeclaredFields.export([DeclaredFields.item], .taskwarrior)
        #expect(text.contains(#""legacy":"PT10M""#), "\(text)")
        let read = try #require(try TaskwarriorFormat.read(text, timeZone: .berlin, fields: DeclaredFields.catalog).items.first)
        #expect(read.values == DeclaredFields.declaredValues)
        #expect(read.foreign.taskwarrior == ["legacy": #""PT10M""#])
        #expect(read.remarks == ["kept as they came for Taskwarrior, unused by todod: legacy"])
        let declared = try #require(try TaskwarriorFormat.read(text, timeZone: .berlin, fields: DeclaredFields.withLegacy).items.first)
        #expect(declared.values == DeclaredFields.values)
        #expect(declared.foreign.isEmpty)
        #expect(declared.remarks.isEmpty, "\(declared.remarks)")
    }

    /// What `task export` (2.6.2, in UTC) printed for UDAs of each type
    /// (`effort:2h`, `estimate:3`), and for a task `task import` was given
    /// `"estimate":3.5` and `"effort":"P1DT2H"`.
    @Test func readsWhatTaskExportPrints() throws {
        let text = """
            [{"id":1,"description":"x","effort":"PT2H","entry":"20261127T134941Z","estimate":3,"modified":"20261127T134941Z",\
            "reviewed":"20300105T000000Z","scheduled":"20300103T000000Z","size":"M","status":"pending","until":"20300201T000000Z",\
            "uuid":"ca124254-a914-4187-9154-3c5d71190a9f","urgency":0},
            {"id":2,"description":"y","effort":"P1DT2H","entry":"20261120T080000Z","estimate":3.500000,"modified":"20261127T134941Z",\
            "size":"L","status":"pending","uuid":"11111111-1111-4111-8111-111111111111","urgency":0.0383562}]
            """
        let batch = try TaskwarriorFormat.read(text, timeZone: Self.utcZone, fields: DeclaredFields.catalog)
        let day = DeclaredFields.day
        // Local midnight is a day, as for `due` and `wait`.
        #expect(batch.items[0].values == [
            "effort": .duration(7_200), "estimate": .number(3), "reviewed": .date(.day(day(2030, 1, 5))),
            "scheduled": .date(.day(day(2030, 1, 3))), "size": .text("M"), "until": .date(.day(day(2030, 2, 1))),
        ])
        #expect(batch.items[1].values == ["effort": .duration(93_600), "estimate": .number(3.5), "size": .text("L")])
        #expect(batch.items.allSatisfy { $0.foreign.isEmpty && $0.remarks.isEmpty }, "\(batch.items)")
        #expect(batch.fields == DeclaredFields.catalog)
    }

    /// Taskwarrior 2.x data read without its rc has numbers and durations
    /// as strings (`TaskwarriorDataDirectory`); a duration may be seconds.
    @Test func numbersAndDurationsAsStringsOrSecondsAreRead() throws {
        let text = #"[{"uuid":"a","description":"x","estimate":"2.25","effort":"5400"},{"uuid":"b","description":"y","effort":600}]"#
        let batch = try TaskwarriorFormat.read(text, timeZone: .berlin, fields: DeclaredFields.catalog)
        #expect(batch.items[0].values == ["estimate": .number(2.25), "effort": .duration(5_400)])
        #expect(batch.items[1].values == ["effort": .duration(600)])
    }

    /// A value that does not fit its field (todod.conf and the taskrc may
    /// disagree) is kept as it came and written back, and said.
    @Test func aValueThatDoesNotFitItsFieldIsKeptAsItCame() throws {
        let text = #"[{"uuid":"a","description":"x","size":"XL","estimate":"lots","reviewed":"1890777600","effort":"3 fortnights","until":""}]"#
        let read = try #require(try TaskwarriorFormat.read(text, timeZone: .berlin, fields: DeclaredFields.catalog).items.first)
        #expect(read.values.isEmpty)
        #expect(read.foreign.taskwarrior == [
            "size": #""XL""#, "estimate": #""lots""#, "reviewed": #""1890777600""#, "effort": #""3 fortnights""#, "until": #""""#,
        ])
        #expect(read.remarks == [
            #"effort "3 fortnights" not used: not a duration (PT2H)"#, #"estimate "lots" not used: not a number"#,
            #"reviewed "1890777600" not used: not a Taskwarrior date (20240115T093000Z)"#, #"size "XL" not used: not one of S, M, L"#,
            "kept as they came for Taskwarrior, unused by todod: effort, estimate, reviewed, size, until",
        ])
        // An allowed value in another case is not that value: it would go back changed.
        let lower = #"[{"uuid":"a","description":"x","size":"m"}]"#
        #expect(try TaskwarriorFormat.read(lower, timeZone: .berlin, fields: DeclaredFields.catalog).items.first?.foreign.taskwarrior == ["size": #""m""#])
        let item = TodoItem(id: TodoID(1), title: "x", createdAt: noon, foreign: read.foreign)
        let written = TaskwarriorFormat.entry(item, listID: listID, timeZone: .berlin, fields: DeclaredFields.catalog)
        for (key, value) in read.foreign.taskwarrior { #expect(written.contains("\"\(key)\":\(value)"), "\(written)") }
    }

    /// A UDA todod.conf does not declare is kept as it came, as before.
    @Test func anUndeclaredAttributeIsStillKeptAsItCame() throws {
        let text = #"[{"uuid":"a","description":"x","client":"Acme","estimate":2}]"#
        let read = try #require(try DeclaredFields.imported(text, .taskwarrior).first)
        #expect(read.values == ["estimate": .number(2)])
        #expect(read.foreign.taskwarrior == ["client": #""Acme""#])
        let written = DeclaredFields.export([read], .taskwarrior)
        #expect(written.contains(#""client":"Acme""#) && written.contains(#""estimate":2,"#), "\(written)")
    }

    /// An attribute kept before its field was declared gives way to the
    /// value set since.
    @Test func aValueWinsOverWhatWasKeptUnderItsName() {
        let item = TodoItem(
            id: TodoID(1), title: "x", createdAt: noon, values: ["estimate": .number(5)],
            foreign: ForeignFields(taskwarrior: ["estimate": "3.5", "scheduled": #""20270101T000000Z""#]))
        let written = TaskwarriorFormat.entry(item, listID: listID, timeZone: .berlin, fields: DeclaredFields.catalog)
        #expect(written.contains(#""estimate":5,"#) && !written.contains("3.5"), "\(written)")
        // Kept and not set since: it goes back as it came.
        #expect(written.contains(#""scheduled":"20270101T000000Z""#), "\(written)")
    }

    /// A field's text is bounded as titles are: too long or not one line is refused, naming the task.
    @Test func aFieldsTextTooLongOrNotOneLineIsRefused() {
        let long = String(repeating: "a", count: 1_001)
        #expect(throws: ImportProblem(location: "task 1", message: "area is 1001 characters long; a field's text may have at most 1000")) {
            try TaskwarriorFormat.read(#"[{"uuid":"a","description":"x","area":"\#(long)"}]"#, timeZone: .berlin, fields: DeclaredFields.catalog)
        }
        #expect(throws: ImportProblem(location: "task 1", message: "area has control characters or line breaks; a field's text is one line")) {
            try TaskwarriorFormat.read(#"[{"uuid":"a","description":"x","area":"a\nb"}]"#, timeZone: .berlin, fields: DeclaredFields.catalog)
        }
        let longest = String(repeating: "a", count: 1_000)
        #expect(
            (try? TaskwarriorFormat.read(#"[{"uuid":"a","description":"x","area":"\#(longest)"}]"#, timeZone: .berlin, fields: DeclaredFields.catalog))?
                .items.first?.values["area"] == .text(longest))
    }
}
