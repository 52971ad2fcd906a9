import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

@Suite struct ImportPlanTests {
    private func plan(_ text: String, _ format: InterchangeFormat, into collection: TodoCollection) throws -> ImportPlan {
        ImportPlan(try format.read(text, timeZone: .berlin), format: format, into: collection, listID: listID, at: noon, timeZone: .berlin)
    }

    private func applying(_ plan: ImportPlan, to collection: TodoCollection) -> TodoCollection {
        var collection = collection
        if let step = plan.step { collection.apply(step) }
        return collection
    }

    @Test func importingTheSameFileAgainChangesNothing() throws {
        let empty = TodoCollection(items: [], nextID: TodoID(1))
        let first = try plan(TaskwarriorFormatTests.export, .taskwarrior, into: empty)
        #expect(first.count(.add) == 4)
        #expect(first.count(.skip) == 1)
        #expect(first.step?.description == "import from Taskwarrior: add 4 items")
        let list = applying(first, to: empty)
        #expect(list.items.compactMap(\.externalID).count == 4)
        let again = try plan(TaskwarriorFormatTests.export, .taskwarrior, into: list)
        #expect(again.count(.unchanged) == 4)
        #expect(again.step == nil)
    }

    @Test func aChangedTaskUpdatesItsItemAndKeepsItsIdAndWhatTheFormatCannotSay() throws {
        let empty = TodoCollection(items: [], nextID: TodoID(1))
        let list = applying(try plan(TaskwarriorFormatTests.export, .taskwarrior, into: empty), to: empty)
        let changed = TaskwarriorFormatTests.export.replacingOccurrences(of: "\"Buy milk\"", with: "\"Buy oat milk\"")
        let update = try plan(changed, .taskwarrior, into: list)
        #expect(update.count(.update) == 1)
        let entry = try #require(update.entries.first { $0.action == .update })
        #expect(entry.id == TodoID(1))
        let after = applying(update, to: list)[TodoID(1)]
        #expect(after?.title == "Buy oat milk")
        #expect(after?.fieldChangedAt[.title] == utc(2026, 11, 21, 9))
        #expect(after?.createdAt == list[TodoID(1)]?.createdAt)
    }

    @Test func anExportOfThisListIsRecognisedByItsDerivedIdentity() throws {
        let item = TodoItem(id: TodoID(7), title: "made here", createdAt: noon, project: "home")
        let list = TodoCollection(items: [item], nextID: TodoID(8))
        let document = ExportDocument(format: .taskwarrior, listID: listID, timeZone: .berlin, now: noon, version: "test")
        var text = document.text(of: [item], itemsBefore: 0, isLast: true)
        text = text.replacingOccurrences(of: "\"home\"", with: "\"work\"")
        let update = try plan(text, .taskwarrior, into: list)
        #expect(update.entries.map(\.action) == [.update])
        #expect(applying(update, to: list)[TodoID(7)]?.project == "work")
        #expect(applying(update, to: list)[TodoID(7)]?.externalID == nil)
        // Another list's export of the same id is a new item there.
        let elsewhere = ImportPlan(
            try InterchangeFormat.taskwarrior.read(text, timeZone: .berlin), format: .taskwarrior, into: list,
            listID: "ffffffff-0000-4000-8000-000000000000", at: noon, timeZone: .berlin)
        #expect(elsewhere.entries.map(\.action) == [.add])
    }

    @Test func todoTxtLinesMatchItemsMadeHere() throws {
        let item = TodoItem(id: TodoID(3), title: "Call Mom", createdAt: noon, tags: ["phone"], project: "family")
        let list = TodoCollection(items: [item], nextID: TodoID(4))
        let update = try plan("x 2026-11-22 (A) Call Mom +family @phone\nnew one\n", .todotxt, into: list)
        #expect(update.entries.map(\.action) == [.update, .add])
        let after = applying(update, to: list)
        #expect(after[TodoID(3)]?.isDone == true)
        #expect(after[TodoID(4)]?.title == "new one")
        #expect(update.step?.description == "import from todo.txt: add 1 item, update 1 item")
    }

    @Test func aRepeatingItemWithoutADueDateIsDueToday() throws {
        let list = TodoCollection(items: [], nextID: TodoID(1))
        let added = applying(try plan("water plants rec:+1w\n", .todotxt, into: list), to: list)
        #expect(added[TodoID(1)]?.due == .day(CalendarDay(year: 2026, month: 11, day: 22)))
    }
}
