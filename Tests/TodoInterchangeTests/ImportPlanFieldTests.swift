import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

/// An import that updates an item sets its declared fields from the file,
/// as it sets the item's own.
@Suite struct ImportPlanFieldTests {
    /// The item without its orphan, `until` a moment: what each format
    /// says of it, said back, changes nothing.
    @Test(arguments: InterchangeFormat.allCases)
    func anExportImportedBackChangesNothing(format: InterchangeFormat) throws {
        var item = DeclaredFields.item
        item.values = DeclaredFields.declaredValues
        let list = TodoCollection(items: [item], nextID: TodoID(2))
        let again = try DeclaredFields.plan(DeclaredFields.export([item], format), format, into: list)
        #expect(again.entries.map(\.action) == [.unchanged], "\(again.entries)")
    }

    @Test func aChangedValueIsSetAndAMissingOneClearedEachMarkedChanged() throws {
        var item = DeclaredFields.item
        item.values = ["estimate": .number(3), "size": .text("S"), "until": .date(.day(DeclaredFields.day(2027, 1, 31)))]
        let list = TodoCollection(items: [item], nextID: TodoID(2))
        var text = DeclaredFields.export([item], .taskwarrior)
        text = text.replacingOccurrences(of: #""estimate":3"#, with: #""estimate":4.5"#)
            .replacingOccurrences(of: #""until":"20270130T230000Z","#, with: "")
        let plan = try DeclaredFields.plan(text, .taskwarrior, into: list)
        #expect(plan.entries.map(\.action) == [.update])
        var after = list
        after.apply(try #require(plan.step))
        let updated = try #require(after[TodoID(1)])
        #expect(updated.values == ["estimate": .number(4.5), "size": .text("S")])
        // Changed when the file says it was modified.
        #expect(updated.fieldChangedAt == [ItemField(rawValue: "estimate"): utc(2026, 11, 20, 8), ItemField(rawValue: "until"): utc(2026, 11, 20, 8)])
    }

    /// An orphan goes out under its own name and comes back among what
    /// the program keeps, whose copy is now the file's: the value gives way
    /// to it, and goes out again as it came.
    @Test(arguments: [InterchangeFormat.taskwarrior, .ical])
    func anOrphanGivesWayToTheCopyTheFileKeeps(format: InterchangeFormat) throws {
        let list = TodoCollection(items: [DeclaredFields.item], nextID: TodoID(2))
        let text = DeclaredFields.export([DeclaredFields.item], format)
        let plan = try DeclaredFields.plan(text, format, into: list)
        var after = list
        after.apply(try #require(plan.step))
        let updated = try #require(after[TodoID(1)])
        #expect(updated.values == DeclaredFields.declaredValues)
        #expect(!updated.foreign.isEmpty)
        #expect(updated.fieldChangedAt.keys.map(\.rawValue) == ["legacy"])
        let again = DeclaredFields.export([updated], format)
        let declared = try #require(try DeclaredFields.imported(again, format, fields: DeclaredFields.withLegacy).first)
        #expect(declared.values == DeclaredFields.values)
    }

    /// A day from todo.txt does not move a declared date's time to the start of its day.
    @Test func aTodoTxtDayKeepsTheTimeOfADeclaredDate() throws {
        var item = DeclaredFields.item
        item.values = ["until": .date(.moment(utc(2027, 1, 31, 17)))]
        let list = TodoCollection(items: [item], nextID: TodoID(2))
        let moved = DeclaredFields.export([item], .todotxt).replacingOccurrences(of: "until:2027-01-31", with: "until:2027-02-01")
        var after = list
        after.apply(try #require(try DeclaredFields.plan(moved, .todotxt, into: list).step))
        #expect(after[TodoID(1)]?.values == ["until": .date(.day(DeclaredFields.day(2027, 2, 1)))])
    }
}
